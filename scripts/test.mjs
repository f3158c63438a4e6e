#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is
// set), build, end-to-end in Chromium. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureSystemPackages } from './system-deps.mjs';

const root = path.resolve(import.meta.dirname, '..');
const started = Date.now();

function step(name, command, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n=== ${name} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name} passed in ${seconds}s`);
}

ensureSystemPackages();
if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL is unset: the integration tier runs on SQLite only.');
}
step('typecheck (server)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
step('typecheck (web)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.web.json']);
step('lint', 'npx', ['biome', 'check', '.']);
step('sizes', 'node', ['scripts/size-guard.mjs']);
const counts = { passed: 0, failed: 0, skipped: 0 };
const resultsDir = path.join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

/** Runs one Vitest project and adds its counts to the closing summary. */
function tier(project) {
  const file = path.join(resultsDir, `${project}.json`);
  step(project, 'npx', [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + report.numTodoTests;
  console.log(`=== ${project}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

tier('unit');
tier('integration');
step('build', 'npm', ['run', '--silent', 'build']);
tier('e2e');
console.log(`\nAll test tiers passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
