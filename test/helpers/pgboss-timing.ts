/**
 * pg-boss settings that hand a killed worker's job on within seconds instead of a minute: shared by the
 * worker the handover test kills (pgboss-worker.ts) and the queue that takes the job over.
 */
export const FAST_HANDOVER = {
  work: true,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
  heartbeatMs: 200,
  staleAfterMs: 1500,
} as const;
