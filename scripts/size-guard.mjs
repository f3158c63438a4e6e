#!/usr/bin/env node
// Part of `npm run lint` (docs/decisions/092-sizes-that-stay-small.md): a function over MAX_FUNCTION_LINES
// lines fails the check, naming the file and the function. Files over 400 lines are Biome's
// (`noExcessiveLinesPerFile` in biome.json); Biome's rule for functions measures a factory as a whole, so this
// reads the code with the TypeScript compiler's parser (already a dependency) instead.
//
// A function is measured from its first line to its last. A factory that returns an object of functions
// (`createXService() { …; return { a() {…}, b: () => … } }`, or a `const` object it returns) is measured by
// its members and its top-level helper functions, each on its own, plus what is left of its body. A React
// component is a function like any other. Tests, fixtures, generated files, migrations and bench/ are exempt.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 100;

const root = path.resolve(import.meta.dirname, '..');

// The product's code; benchmarks (bench/) are measuring tools, exempt like tests.
const SOURCE = /^(server|contract|web\/src|scripts)\/.*\.(ts|tsx|mjs)$/;
const EXEMPT = [
  /\.test\.(ts|tsx|mjs)$/,
  /\.d\.ts$/,
  /^server\/db\/migrations\//,
  /(^|\/)fixtures\//,
  /\.generated\./,
];

/** The tracked and untracked (not ignored) source files, as git sees them, that the work tree holds. */
function sourceFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  // A tracked file moved or deleted in the work tree (not yet staged) is no longer there to measure.
  return [...new Set(out.split('\n'))].filter(
    (f) => SOURCE.test(f) && !EXEMPT.some((re) => re.test(f)) && existsSync(path.join(root, f)),
  );
}

const isFunctionLike = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node) ||
  ts.isConstructorDeclaration(node);

/** The name a function is known by: its own, its variable's, its property's, or the enclosing call's. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText();
    return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee}(callback)`;
  }
  return '(anonymous)';
}

const linesOf = (sf, node) =>
  sf.getLineAndCharacterOfPosition(node.getEnd()).line -
  sf.getLineAndCharacterOfPosition(node.getStart(sf)).line +
  1;

/** The function a node is, or null: a function-like node, or a property whose value is one. */
function functionIn(node) {
  if (isFunctionLike(node)) return node;
  if (ts.isPropertyAssignment(node) && isFunctionLike(node.initializer)) return node.initializer;
  return null;
}

/** The object literal a factory returns: `return {…}`, or `return api` where `const api = {…}`. */
function returnedObject(body) {
  if (!ts.isBlock(body)) return unwrap(body);
  const objects = new Map();
  for (const statement of body.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer && unwrap(d.initializer);
        if (ts.isIdentifier(d.name) && init && ts.isObjectLiteralExpression(init))
          objects.set(d.name.text, init);
      }
    }
    if (ts.isReturnStatement(statement) && statement.expression) {
      const expr = unwrap(statement.expression);
      if (ts.isObjectLiteralExpression(expr)) return expr;
      if (ts.isIdentifier(expr) && objects.has(expr.text)) return objects.get(expr.text);
    }
  }
  return null;
}

function unwrap(expr) {
  let e = expr;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))
    e = e.expression;
  return e;
}

/**
 * The lines a function counts: its whole span; for a factory (it returns an object literal with functions
 * in it), less those members and less the helper functions declared at the top of its body, which are
 * measured on their own.
 */
function ownLines(sf, fn) {
  let lines = linesOf(sf, fn);
  const body = fn.body;
  const returned = body && returnedObject(body);
  if (!returned || !ts.isObjectLiteralExpression(returned)) return lines;
  const members = returned.properties.map(functionIn).filter(Boolean);
  if (members.length === 0) return lines;
  for (const member of members) lines -= linesOf(sf, member);
  if (ts.isBlock(body)) {
    for (const statement of body.statements) {
      if (ts.isFunctionDeclaration(statement)) lines -= linesOf(sf, statement);
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) {
          if (d.initializer && isFunctionLike(unwrap(d.initializer))) lines -= linesOf(sf, d);
        }
      }
    }
  }
  return lines;
}

/** Every function of a file longer than the limit: `file#name` → lines. */
export function longFunctions(file, text) {
  const kind = file.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : file.endsWith('.mjs')
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map();
  const visit = (node) => {
    if (isFunctionLike(node) && node.body) {
      const lines = ownLines(sf, node);
      if (lines > MAX_FUNCTION_LINES) {
        let key = `${file}#${nameOf(node)}`;
        for (let i = 2; found.has(key); i++) key = `${file}#${nameOf(node)}~${i}`;
        found.set(key, lines);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every function over the limit now: `file#function` → lines. */
export function measure(files = sourceFiles()) {
  const over = new Map();
  for (const file of files) {
    for (const [key, n] of longFunctions(file, readFileSync(path.join(root, file), 'utf8'))) over.set(key, n);
  }
  return over;
}

function main() {
  const over = measure();
  if (over.size > 0) {
    const lines = [...over].map(([key, n]) => {
      const [file, fn] = key.split('#');
      return `function ${fn} in ${file}: ${n} lines`;
    });
    console.error(`size-guard: ${over.size} over ${MAX_FUNCTION_LINES} lines:\n  ${lines.join('\n  ')}`);
    console.error('Split it along meaning (docs/decisions/092-sizes-that-stay-small.md).');
    process.exit(1);
  }
  console.log(`size-guard: every function is within ${MAX_FUNCTION_LINES} lines`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
