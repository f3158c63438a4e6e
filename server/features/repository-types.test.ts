import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Repositories answer domain types (camelCase, booleans, parsed values): no database row leaves one.
// This reads every server/features/*/repository.ts with the TypeScript compiler and looks at what each
// function it exports returns, and what each method of the repository it creates returns: a property
// name with `_` or a type of Kysely's (Selectable, Insertable, a query result) found there is a row
// leaking.

const FEATURES = path.resolve(import.meta.dirname);

/**
 * Repositories not converted yet, with the reason. Each entry must still leak something: once a
 * repository answers domain types, its entry goes.
 */
const NOT_YET_CONVERTED: Record<string, string> = {};

function repositoryFiles(): string[] {
  return readdirSync(FEATURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(FEATURES, d.name, 'repository.ts'))
    .filter((file) => ts.sys.fileExists(file));
}

function program(files: string[]): ts.Program {
  const configFile = ts.findConfigFile(FEATURES, ts.sys.fileExists, 'tsconfig.json');
  if (!configFile) throw new Error('tsconfig.json not found');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile));
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

const fromKysely = (symbol: ts.Symbol | undefined) =>
  symbol?.declarations?.some((d) => d.getSourceFile().fileName.includes('/node_modules/kysely/')) ?? false;
const fromLibrary = (symbol: ts.Symbol | undefined) =>
  symbol?.declarations?.some((d) => d.getSourceFile().fileName.includes('/node_modules/')) ?? false;

/** Where in a returned type a row shows: `where` names the path, e.g. `byId → .lastError`. */
function leaks(checker: ts.TypeChecker, type: ts.Type, where: string, seen = new Set<ts.Type>()): string[] {
  if (seen.has(type)) return [];
  seen.add(type);
  if (type.isUnion() || type.isIntersection()) {
    return type.types.flatMap((t) => leaks(checker, t, where, seen));
  }
  if (fromKysely(type.aliasSymbol) || fromKysely(type.getSymbol())) {
    return [`${where}: Kysely's ${checker.typeToString(type)}`];
  }
  if (!(type.flags & ts.TypeFlags.Object)) return [];
  const awaited = checker.getAwaitedType(type);
  if (awaited && awaited !== type) return leaks(checker, awaited, where, seen);
  // Arrays, sets, maps and other generic containers of the standard library: what they hold.
  if (fromLibrary(type.getSymbol())) {
    const args = (type as ts.TypeReference).target ? checker.getTypeArguments(type as ts.TypeReference) : [];
    return args.flatMap((t) => leaks(checker, t, where, seen));
  }
  if (checker.isTupleType(type)) {
    return checker.getTypeArguments(type as ts.TypeReference).flatMap((t) => leaks(checker, t, where, seen));
  }
  const found: string[] = [];
  for (const property of checker.getPropertiesOfType(type)) {
    const at = `${where} → .${property.name}`;
    if (property.name.includes('_')) found.push(at);
    const propertyType = checker.getTypeOfSymbol(property);
    const calls = propertyType.getCallSignatures();
    if (calls.length > 0) {
      for (const call of calls) found.push(...leaks(checker, call.getReturnType(), `${at}()`, seen));
    } else {
      found.push(...leaks(checker, propertyType, at, seen));
    }
  }
  return found;
}

/** What each export of a repository file returns: its functions, and the methods of what they create. */
function offendersOf(checker: ts.TypeChecker, file: ts.SourceFile): string[] {
  const module = checker.getSymbolAtLocation(file);
  if (!module) return [];
  const found: string[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable))) continue;
    const type = checker.getTypeOfSymbol(symbol);
    for (const call of type.getCallSignatures()) {
      found.push(...leaks(checker, call.getReturnType(), `${exported.name}()`));
    }
  }
  return [...new Set(found)];
}

describe('repositories', () => {
  it('answer domain types, never database rows', { timeout: 120_000 }, () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(0);
    const checked = program(files);
    const checker = checked.getTypeChecker();
    const leaking: Record<string, string[]> = {};
    for (const file of files) {
      const source = checked.getSourceFile(file);
      if (!source) throw new Error(`${file} was not loaded`);
      const offenders = offendersOf(checker, source);
      if (offenders.length > 0) leaking[path.relative(FEATURES, file)] = offenders;
    }
    const unexpected = Object.fromEntries(
      Object.entries(leaking).filter(([file]) => !Object.hasOwn(NOT_YET_CONVERTED, file)),
    );
    expect(unexpected).toEqual({});
    const converted = Object.keys(NOT_YET_CONVERTED).filter((file) => !Object.hasOwn(leaking, file));
    expect(converted, 'converted repositories to take off NOT_YET_CONVERTED').toEqual([]);
  });
});
