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
          // ports of its own, so two files run side by side on a 2-core machine (Vitest's default would
          // be the cores less one). What made that nondeterministic is fixed where it happened: schemas
          // are dropped after the run, not by the file that made them (test/helpers/pg-schemas.ts), and
          // each worker takes its peers' ports from a block of its own (test/helpers/net.ts).
          maxWorkers: 2,
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
