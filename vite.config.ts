import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress';

const require = createRequire(import.meta.url);

// The SPA lives in web/; the built files land in dist/web, which the server serves (server/http/static-assets.ts).
export default defineConfig(({ command }) => ({
  root: 'web',
  plugins: [react(), precompress()],
  resolve: {
    alias:
      command === 'build'
        ? [
            // react-router's package exports name only its development build (dev warnings always on); its
            // production build is the same code with them off, which the minifier then drops.
            {
              find: /^react-router$/,
              replacement: path.join(
                path.dirname(require.resolve('react-router/package.json')),
                'dist/production/index.mjs',
              ),
            },
          ]
        : [],
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Maps stay on disk for debugging a production stack trace, but the bundles do not name them and the
    // server does not serve them.
    sourcemap: 'hidden',
    // Every browser the build targets (Vite's default, baseline widely available) preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // zod's builders (z.object(…), z.string().min(…)) have no side effects: a contract schema the web
      // never uses is left out of its bundles, instead of riding along with every screen that imports the
      // contract (docs/benchmarks.md, first load).
      treeshake: {
        manualPureFunctions: ['z'],
        // contract/api.ts re-exports the account-security schemas, which only the sign-in screens and
        // Settings use: declared free of side effects, they stay in a chunk of those screens instead of
        // riding along with every signed-in first page through the re-export (e2e/budget.e2e.test.ts).
        moduleSideEffects: [{ test: /[\\/]contract[\\/]api[\\/]security\.ts$/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk: the first page would otherwise fetch
          // a dozen small shared chunks, each with its own response headers (about 1 KiB each here).
          groups: [
            { name: 'app', tags: ['$initial'] },
            // react-bootstrap and the helpers its components share, one chunk for the screens that use
            // them, rather than a dozen small ones (Button, Col, divWithClassName…) each with its headers.
            {
              name: 'react-bootstrap',
              test: /node_modules[\\/](react-bootstrap|@restart|react-transition-group|dom-helpers|uncontrollable|@popperjs|prop-types|classnames|warning|invariant|@babel[\\/]runtime)[\\/]/,
            },
          ],
        },
      },
    },
  },
}));
