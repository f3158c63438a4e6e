import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA lives in web/; the built files land in dist/web, which the server serves.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: true },
});
