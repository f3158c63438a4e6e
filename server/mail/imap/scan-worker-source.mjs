// The scan's worker run from source (tests, `npm run dev`): tsx's hooks are registered in the worker first,
// because Node 20 does not apply an `--import` from a worker's execArgv to the worker's own entry. The built
// product starts dist/server/mail/imap/scan-worker.js directly (scan-thread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./scan-worker.ts');
