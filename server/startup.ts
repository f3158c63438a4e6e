import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config, ParsedConfig } from './config.js';

// What start-up does before the configuration can be used, kept out of config parsing so that parsing
// stays pure: read a .env file, create the data folder, read or create the secret key.

/**
 * Loads `file` (default .env in the working directory, where `npm start` runs) into process.env when it
 * exists. Variables already in the environment win over the file's (Node's own loader does not replace
 * them), so a deployment's settings cannot be overridden by a stray file. Answers whether a file was read.
 */
export function loadDotEnv(file = '.env'): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/** Reads SECRET_KEY from DATA_DIR/secret-key, creating it (mode 0600) on first start. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}

/**
 * Creates DATA_DIR (0700; one that exists keeps its mode) and settles the secret key: SECRET_KEY when set,
 * otherwise the one generated into the data folder on first start.
 */
export function prepareDataDir(config: ParsedConfig): Config {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return { ...config, secretKey: config.secretKey ?? loadOrCreateSecret(config.dataDir) };
}
