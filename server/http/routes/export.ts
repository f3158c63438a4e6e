import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataExportSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { ExportService } from '#server/features/export/service.js';
import { perUserRateLimit } from '../plugins/user-rate-limit.js';

export interface ExportRouteOptions {
  dataExport: ExportService;
}

/**
 * The exports' own per-user limit, tighter than the shared USER_RATE_LIMIT: an export reads every row
 * of the user (50,000 message references and more), where the shared budget's calls read a page. Ten
 * downloads in ten minutes is plenty for a person; a script looping on it is held off.
 */
export const EXPORT_RATE_LIMIT = { max: 10, windowMs: 10 * 60_000 } as const;

// "Your data to take away" (under routes/signed-in.ts): downloads, streamed as the service makes them.
// GET /export answers the contract's dataExportSchema; it is streamed, so Fastify does not serialize it
// through the schema (which documents it): the repository builds each row field by field instead.
export const exportRoutes: FastifyPluginAsyncZod<ExportRouteOptions> = async (app, { dataExport }) => {
  const limit = perUserRateLimit(EXPORT_RATE_LIMIT);
  // No HEAD twin: it would run the handler, so count against the limit and audit an export nobody took.

  app.get(
    API.exportJson,
    { exposeHeadRoute: false, preHandler: limit, schema: { response: { 200: dataExportSchema } } },
    async (request, reply) => {
      const { fileName, chunks } = await dataExport.json(request.user.userId);
      // The typed reply takes the schema's object only; a stream is sent as it is, unserialized.
      const untyped: FastifyReply = reply;
      return untyped
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks));
    },
  );

  app.get(API.exportCsv, { exposeHeadRoute: false, preHandler: limit }, async (request, reply) => {
    const { fileName, chunks } = await dataExport.csv(request.user.userId);
    return reply
      .header('content-type', 'text/csv; charset=utf-8; header=present')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(chunks));
  });
};
