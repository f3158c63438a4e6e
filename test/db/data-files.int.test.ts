import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/index.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, isResetMail, readOutbox, uniqueEmail } from '#test/helpers/app.js';
import { HttpSession } from '#test/helpers/http.js';
import { freePort } from '#test/helpers/net.js';
import { untilHealthy } from '#test/helpers/product-process.js';

// What the product leaves in DATA_DIR: the database files readable by their owner only, whatever the
// folder's mode (with a warning when others can enter it), and nothing of a deleted account left in
// the write-ahead log or the outbox.

const root = path.resolve(import.meta.dirname, '../..');
const FILES = ['inbox-genie.sqlite', 'inbox-genie.sqlite-wal', 'inbox-genie.sqlite-shm'];

async function mode(file: string): Promise<string> {
  return ((await stat(file)).mode & 0o777).toString(8);
}

describe('the database files in a world-readable DATA_DIR', () => {
  const dirs: string[] = [];
  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'ig-files-'));
    dirs.push(dir);
    await chmod(dir, 0o755);
    return dir;
  }
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('are 0600 after the product started and wrote, and the open folder is warned about', async () => {
    const dir = await dataDir();
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await untilHealthy(port, child, () => output);
      const http = new HttpSession(`http://127.0.0.1:${port}`);
      expect(
        (await http.call('/auth/signup', 'POST', { email: uniqueEmail(), password: 'long enough' })).ok,
      ).toBe(true);
      for (const file of FILES) expect(await mode(path.join(dir, file)), file).toBe('600');
      expect(output).toMatch(/DATA_DIR .* can be read by other users/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('are made 0600 when an earlier start left them readable by all', async () => {
    const dir = await dataDir();
    const file = path.join(dir, 'inbox-genie.sqlite');
    // A database in WAL mode, held open by another connection so its -wal and -shm stay, all 0644.
    const earlier = new SQLite(file);
    earlier.pragma('journal_mode = WAL');
    earlier.exec('create table leftover (x)');
    for (const name of FILES) await chmod(path.join(dir, name), 0o644);
    const database = await openDatabase({ databaseUrl: null, dataDir: dir });
    try {
      for (const name of FILES) expect(await mode(path.join(dir, name)), name).toBe('600');
    } finally {
      await database.close();
      earlier.close();
    }
  });
});

describe.each(DIALECTS)('deleting an account on %s', (dialect) => {
  const t = withTestApp(dialect);

  async function userWithResetMail(prefix: string): Promise<{ email: string; client: Client }> {
    const email = uniqueEmail(prefix);
    const client = new Client(t.app);
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    expect((await client.post('/auth/forgot-password', { email })).statusCode).toBe(200);
    await expect
      .poll(async () => (await readOutbox(t.dataDir)).filter((m) => m.to === email && isResetMail(m)))
      .toHaveLength(1);
    return { email, client };
  }

  it("removes the user's mails from the outbox, and leaves nothing of them in the write-ahead log", async () => {
    const leaving = await userWithResetMail('leaving');
    const staying = await userWithResetMail('staying');

    expect((await leaving.client.delete('/delete-account')).statusCode).toBe(200);

    const outbox = await readOutbox(t.dataDir);
    expect(outbox.filter((m) => m.to === leaving.email)).toEqual([]);
    expect(outbox.filter((m) => m.to === staying.email && isResetMail(m))).toHaveLength(1);
    if (dialect === 'sqlite') {
      const wal = path.join(t.dataDir, 'inbox-genie.sqlite-wal');
      const bytes = existsSync(wal) ? await readFile(wal) : Buffer.alloc(0);
      expect(bytes.includes(Buffer.from(leaving.email))).toBe(false);
      // The other account is still there, so the check above is not passing on an empty database.
      const row = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', staying.email)
        .executeTakeFirst();
      expect(row).toBeDefined();
    }
  });
});
