import { defineConfig } from 'vitest/config';

// Three tiers named by what is real (docs/decisions/009-vitest-for-every-tier.md). `npm test` runs them in order through scripts/test.mjs.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'server/**/*.test.ts',
            'contract/**/*.test.ts',
            'web/**/*.test.{ts,tsx}',
            'scripts/**/*.test.mjs',
          ],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['server/**/*.int.test.ts', 'test/**/*.int.test.ts'],
          environment: 'node',
          // Test CA + leaf certificates; sets NODE_EXTRA_CA_CERTS and TEST_HTTPS_CERT_DIR, which the
          // forked workers inherit (they are started after globalSetup, from process.env).
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file builds its own app, database schema, job schema and peers (IMAP servers, fakes) on
          // ports of its own, so files may run side by side; Vitest's default pool is the cores less one,
          // so on a 2-core machine they run one at a time. Two at a time (maxWorkers: 2) took the tier
          // from ~540 s to ~317 s, but is not deterministic yet, so not on: Kysely's migrator looks for its
          // table among every schema's tables (has_schema_privilege on each), which fails with "schema …
          // does not exist" when another file drops its schema meanwhile (seen in senders.int's PostgreSQL
          // setup); and read-state's IMAP check lost its Dovecot connection once, cause not found.
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
