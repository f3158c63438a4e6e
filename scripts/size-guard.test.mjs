import { describe, expect, it } from 'vitest';
import { longFunctions, MAX_FUNCTION_LINES } from './size-guard.mjs';

// The function measure of scripts/size-guard.mjs, on source written here.

const body = (n, indent = '  ') =>
  Array.from({ length: n }, (_, i) => `${indent}const v${i} = ${i};`).join('\n');

describe('longFunctions', () => {
  it('names a function over the limit, and not one at it', () => {
    const long = `export function tooLong() {\n${body(MAX_FUNCTION_LINES - 1)}\n}\n`;
    const fits = `export function fits() {\n${body(MAX_FUNCTION_LINES - 2)}\n}\n`;
    expect([...longFunctions('a.ts', long + fits)]).toEqual([['a.ts#tooLong', MAX_FUNCTION_LINES + 1]]);
  });

  it('measures a factory by its members and helpers, naming the long member', () => {
    const member = (name, n) => `    ${name}() {\n${body(n, '      ')}\n    },`;
    const factory = [
      'export function createThing() {',
      `  function helper() {\n${body(60, '    ')}\n  }`,
      '  const api = {',
      member('small', 60),
      member('big', 120),
      '  };',
      '  return api;',
      '}',
    ].join('\n');
    expect([...longFunctions('f.ts', factory)]).toEqual([['f.ts#big', 122]]);
  });

  it('measures a component (JSX) as a whole, arrow or declaration', () => {
    const jsx = `export const Page = () => (\n  <div>\n${Array.from({ length: 110 }, () => '    <p>x</p>').join('\n')}\n  </div>\n);\n`;
    expect([...longFunctions('p.tsx', jsx)]).toEqual([['p.tsx#Page', 114]]);
  });
});
