#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is
// set), build, end-to-end in Chromium. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
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
step('unit', 'npx', ['vitest', 'run', '--project', 'unit']);
step('integration', 'npx', ['vitest', 'run', '--project', 'integration']);
step('build', 'npm', ['run', '--silent', 'build']);
step('e2e', 'npx', ['vitest', 'run', '--project', 'e2e']);
console.log(`\nAll test tiers passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
