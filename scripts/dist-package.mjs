#!/usr/bin/env node
// After `tsc` has built the server into dist/: Node resolves a `#server/…` or `#contract/…` import through
// the package.json nearest to the importing file, so dist/ gets one that points the aliases at the built
// files beside it (the root package.json points them at the TypeScript sources for tsx and Vitest).
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const dist = path.resolve(import.meta.dirname, '..', 'dist');
const manifest = {
  private: true,
  type: 'module',
  imports: { '#server/*': './server/*', '#contract/*': './contract/*' },
};
writeFileSync(path.join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
