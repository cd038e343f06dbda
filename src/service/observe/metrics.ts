import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RenderStatus } from '../../wire/constants.js';
import type { ServiceEvents } from './events.js';

/** Every series' name starts with it. */
export const METRIC_PREFIX = 'fx_';

/** What the scrape reads from the database: how the queue and the webhook outbox stand now. */
export interface ScrapeSources {
  /** Ids of queued live renders, oldest first, and when the oldest was submitted. */
  readonly queue: () => Promise<{ depth: number; oldestCreatedAt: number | undefined }>;
  /** Webhook deliveries not yet delivered nor given up. */
  readonly outboxPending: () => Promise<number>;
  readonly now: () => number;
}

export interface ServiceMetrics {
  readonly registry: Registry;
  /** The Prometheus text of every series, the database's figures read now. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Seconds: a request takes milliseconds; a render seconds to minutes. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RENDER_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 3600];
const FPS_BUCKETS = [1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 240];

/**
 * The service's Prometheus series, in a registry of this service instance (several may run in one process), fed
 * by the service events and, at each scrape, by the database. With `processMetrics`, prom-client's Node series too
 * (`fx_process_*`, `fx_nodejs_*`; once per process is enough, `main.ts` asks for them).
 */
export function createMetrics(
  events: ServiceEvents,
  sources: ScrapeSources,
  options: { processMetrics?: boolean } = {},
): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`;

  const requests = new Counter({
    name: name('http_requests_total'),
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: name('http_request_duration_seconds'),
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const renders = new Counter({
    name: name('renders_total'),
    help: 'Render state changes, by the state entered and the failure code (empty unless failed)',
    labelNames: ['state', 'failure_code'] as const,
    registers,
  });
  const renderSeconds = new Histogram({
    name: name('render_duration_seconds'),
    help: 'Time a render spent rendering before it completed or failed (its last attempt), by final state',
    labelNames: ['state'] as const,
    buckets: RENDER_BUCKETS,
    registers,
  });
  const renderFps = new Histogram({
    name: name('render_frames_per_second'),
    help: 'Frames of a completed render per second of its rendering',
    buckets: FPS_BUCKETS,
    registers,
  });
  const renderFrames = new Counter({
    name: name('render_frames_total'),
    help: 'Frames of completed renders',
    registers,
  });
  const chunkJobs = new Counter({
    name: name('chunk_jobs_total'),
    help: 'Chunk job attempts of chunked renders, by outcome (done, retry, failed, handed_back)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhookAttempts = new Counter({
    name: name('webhook_attempts_total'),
    help: 'Webhook delivery attempts, by outcome (delivered, retry, abandoned)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhookFailures = new Counter({
    name: name('webhook_failures_total'),
    help: 'Webhooks given up without a delivery (attempts used up, or the render deleted)',
    registers,
  });
  const jobRetries = new Counter({
    name: name('job_retries_total'),
    help: 'Jobs run again, by reason (queue: a handler error or an expired lease; chunk_failed)',
    labelNames: ['reason'] as const,
    registers,
  });
  const idempotencyConflicts = new Counter({
    name: name('idempotency_conflicts_total'),
    help: 'Requests refused for their Idempotency-Key, by endpoint and reason (mismatch, in_progress)',
    labelNames: ['endpoint', 'reason'] as const,
    registers,
  });
  const readinessFailures = new Counter({
    name: name('readiness_check_failures_total'),
    help: 'Readiness checks that failed, by check',
    labelNames: ['check'] as const,
    registers,
  });
  const filesRemoved = new Counter({
    name: name('retention_removals_total'),
    help: "Renders' and assets' stored files removed by retention, by kind and reason (expired, deleted, unused)",
    labelNames: ['kind', 'reason'] as const,
    registers,
  });
  const queueDepth = new Gauge({ name: name('queue_depth'), help: 'Renders queued now', registers });
  const queueOldest = new Gauge({
    name: name('queue_oldest_age_seconds'),
    help: 'Age of the oldest queued render (since its submit); 0 when none is queued',
    registers,
  });
  const outboxPending = new Gauge({
    name: name('webhook_outbox_pending'),
    help: 'Webhook deliveries waiting to be sent or retried',
    registers,
  });
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

  // Every series of a label that is known in advance starts at 0, so a rate over it exists before the first event.
  for (const state of Object.values(RenderStatus)) renders.inc({ state, failure_code: '' }, 0);
  for (const outcome of ['delivered', 'retry', 'abandoned']) webhookAttempts.inc({ outcome }, 0);
  webhookFailures.inc(0);

  events.subscribe({
    requestFinished(event) {
      requests.inc({ method: event.method, route: event.route, status: String(event.status) });
      requestSeconds.observe({ method: event.method, route: event.route }, event.ms / 1000);
    },
    renderStateChanged(event) {
      if (event.from === event.to) return;
      renders.inc({ state: event.to, failure_code: event.failureCode ?? '' });
      if (event.to === RenderStatus.completed || event.to === RenderStatus.failed)
        renderSeconds.observe({ state: event.to }, event.ms / 1000);
      if (event.to === RenderStatus.completed && event.frames !== undefined) {
        renderFrames.inc(event.frames);
        if (event.fps !== undefined && event.fps > 0) renderFps.observe(event.fps);
      }
    },
    chunkJobFinished(event) {
      chunkJobs.inc({ outcome: event.outcome });
    },
    webhookAttempted(event) {
      webhookAttempts.inc({ outcome: event.outcome });
      if (event.outcome === 'abandoned') webhookFailures.inc();
    },
    jobRetried(event) {
      jobRetries.inc({ reason: event.reason });
    },
    idempotencyConflicted(event) {
      idempotencyConflicts.inc({ endpoint: event.endpoint, reason: event.reason });
    },
    readinessCheckFailed(event) {
      readinessFailures.inc({ check: event.check });
    },
    filesRemoved(event) {
      filesRemoved.inc({ kind: event.kind, reason: event.reason });
    },
  });

  return {
    registry,
    async scrape() {
      const [queue, pending] = await Promise.all([sources.queue(), sources.outboxPending()]);
      queueDepth.set(queue.depth);
      queueOldest.set(
        queue.oldestCreatedAt === undefined ? 0 : Math.max(0, (sources.now() - queue.oldestCreatedAt) / 1000),
      );
      outboxPending.set(pending);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
