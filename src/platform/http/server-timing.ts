import type { FastifyReply, FastifyRequest } from 'fastify';

// Kept on the request object itself (both declared with decorateRequest in createHttpServer, so every
// request has the same shape) rather than in a side map: this runs on every request of the hot path.
interface TimedRequest {
  startedAt: number;
  timingPhases: string;
}

export const formatMs = (ms: number): string => ms.toFixed(2);

export function markStarted(request: FastifyRequest): void {
  (request as unknown as TimedRequest).startedAt = performance.now();
}

/** Milliseconds since the platform's onRequest hook saw the request. */
export function elapsedMs(request: FastifyRequest): number {
  const started = (request as unknown as TimedRequest).startedAt;
  return started === 0 ? 0 : performance.now() - started;
}

/** Adds `name;dur=…` to the response's Server-Timing header, after the platform's `app;dur=…`. */
export function addServerTiming(request: FastifyRequest, name: string, ms: number): void {
  const r = request as unknown as TimedRequest;
  const phase = `${name};dur=${formatMs(ms)}`;
  r.timingPhases = r.timingPhases ? `${r.timingPhases}, ${phase}` : phase;
}

/** Sets Server-Timing on a response about to be sent: the app's time (unless a route set its own), then the phases. */
export function applyServerTiming(request: FastifyRequest, reply: FastifyReply): void {
  const r = request as unknown as TimedRequest;
  const current = reply.getHeader('server-timing');
  if (current === undefined) {
    if (r.startedAt === 0) return;
    const app = `app;dur=${formatMs(elapsedMs(request))}`;
    reply.header('server-timing', r.timingPhases ? `${app}, ${r.timingPhases}` : app);
  } else if (r.timingPhases) {
    reply.header('server-timing', current ? `${String(current)}, ${r.timingPhases}` : r.timingPhases);
  }
}
