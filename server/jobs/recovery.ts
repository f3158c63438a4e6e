import type { FastifyInstance } from 'fastify';

interface Recoverable {
  unsubscribe: { reconcileAbandoned(options: { all: boolean }): Promise<number> };
  bulk: { resumeUnfinished(options: { all: boolean }): Promise<number> };
  billing: { resumeUnprocessed(): Promise<number> };
}

/**
 * What a stopped process left half done is taken up when the app is ready, in this order. `all`: this
 * process is the only one (SQLite), so everything unfinished was left by a stopped process; on PostgreSQL
 * only what is past its lease was.
 */
export function registerRecovery(
  app: FastifyInstance,
  services: Recoverable,
  options: { all: boolean },
): void {
  const { unsubscribe, bulk, billing } = services;
  app.addHook('onReady', async () => {
    // Unsubscribe runs cut off mid-way are settled from their receipts, never sent again.
    const settled = await unsubscribe.reconcileAbandoned(options);
    if (settled > 0) app.log.warn({ settled }, 'settled unsubscribe runs left by a stopped process');
    // Then bulk actions go on: an item cut off mid-request answers from the receipts settled above.
    const resumed = await bulk.resumeUnfinished(options);
    if (resumed > 0) app.log.info({ resumed }, 'resuming unfinished bulk actions');
    // Webhook events stored but not synced (the in-process queue is lost with its process; pg-boss keeps
    // its jobs, and a second sync changes nothing).
    const queued = await billing.resumeUnprocessed();
    if (queued > 0) app.log.info({ queued }, 'syncing Stripe customers with unprocessed events');
  });
}
