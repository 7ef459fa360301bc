// GET /metrics: the access rule first (access.ts), then the text; prom-client and the exposition
// are loaded at the first scrape that is let in, never before (serve's start and its requests pay nothing).
import type { FastifyInstance } from 'fastify';
import { metricsGuard, METRICS_PATH, type MetricsAccess } from './access.js';
import type { createExposition, MetricsSources } from './exposition.js';

export function registerMetrics(app: FastifyInstance, sources: MetricsSources, access: MetricsAccess): void {
  const refusal = metricsGuard(access);
  let exposition: Promise<ReturnType<typeof createExposition>> | undefined;
  const load = () => import('./exposition.js').then(({ createExposition }) => createExposition(sources)).catch((error: unknown) => {
    exposition = undefined; // tried again at the next scrape
    throw error;
  });
  app.get(METRICS_PATH, async (request, reply) => {
    const refused = refusal(request);
    if (refused) throw refused;
    const { contentType, text } = await (exposition ??= load());
    return reply.type(contentType).header('cache-control', 'no-store').send(await text());
  });
}
