import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { API_KEY_PREFIX, RenderStatus, Route, WEBHOOK_SECRET_PREFIX } from '../../wire/constants.js';
import type { ServiceEvents } from './events.js';

import type { LogLevel } from './log-levels.js';

export type ServiceLogger = Logger;

/**
 * What must never reach a log line, wherever it hides in a string: API keys, webhook secrets, bearer tokens, the
 * signature (and credentials) of a signed or presigned URL, a database URL's password.
 */
const SECRETS: readonly [RegExp, string][] = [
  [new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]+`, 'g'), `${API_KEY_PREFIX}***`],
  [new RegExp(`${WEBHOOK_SECRET_PREFIX}[A-Za-z0-9+/=_-]+`, 'g'), `${WEBHOOK_SECRET_PREFIX}***`],
  [/(Bearer\s+)[^\s"',;]+/gi, '$1***'],
  [/([?&](?:sig|signature|token|X-Amz-[A-Za-z-]+)=)[^&\s"'#]*/gi, '$1***'],
  [/(\w+:\/\/[^:/?#\s"']*:)[^@/\s"']+@/g, '$1***@'],
];
/** Fields whose value is a secret whatever it looks like. */
const SECRET_KEYS = /^(authorization|password|secret|webhook_?secret|token|api_?key|access_?token|refresh_?token)$/i;

export function scrub(text: string): string {
  return SECRETS.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return scrub(String(value.stack ?? value));
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEYS.test(key) ? '***' : scrubValue(item, depth + 1)]),
  );
}

/**
 * The service's logger: JSON lines (pino) with an ISO `time`, `level` as a name, and every string scrubbed of
 * secrets (`scrub`). `destination` defaults to stdout, written synchronously (a process that exits after an uncaught
 * exception loses no line); `main.ts` gives pino-pretty's stream on a TTY.
 */
export function createServiceLogger(
  options: { level?: LogLevel; destination?: DestinationStream | NodeJS.WritableStream } = {},
): ServiceLogger {
  return pino(
    {
      level: options.level ?? 'info',
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => scrubValue(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
    },
    (options.destination ?? pino.destination({ dest: 1, sync: true })) as DestinationStream,
  );
}

/** The level of each operational line (`ServiceConfig.log`): problems warn, failures of the service are errors. */
const OPERATIONAL_LEVELS: Readonly<Record<string, Level>> = {
  'render chunk done': 'info',
  'render joined': 'info',
  'client aborted': 'info',
  'render failed': 'warn',
  'request failed': 'error',
  'job crashed': 'error',
  'job queue error': 'error',
  'webhook dispatch failed': 'error',
  'unhandled rejection (the service keeps serving)': 'error',
  'uncaught exception (the service stops)': 'fatal',
  'orderly stop failed': 'error',
};

/** `ServiceConfig.log` as a logger's line: the message, its details as fields. */
export function operationalLog(logger: ServiceLogger) {
  return (message: string, details?: Record<string, unknown>) =>
    logger[OPERATIONAL_LEVELS[message] ?? 'warn'](details ?? {}, message);
}

/** One line per request, render state change, webhook attempt (and final failure), job retry and conflict. */
export function logEvents(events: ServiceEvents, logger: ServiceLogger): void {
  events.subscribe({
    requestFinished(event) {
      // Probes and scrapes come every few seconds: their lines are debug unless they fail.
      const level = event.status >= 500 ? 'error' : PROBES.has(event.route) ? 'debug' : 'info';
      logger[level](
        {
          requestId: event.requestId,
          method: event.method,
          route: event.route,
          path: event.path,
          status: event.status,
          ms: event.ms,
          client: event.client,
          ...(event.accountId === undefined ? {} : { account: event.accountId }),
          ...(event.renderId === undefined ? {} : { renderId: event.renderId }),
        },
        'request',
      );
    },
    renderStateChanged(event) {
      const level = event.to === RenderStatus.failed ? 'warn' : 'info';
      logger[level](
        {
          renderId: event.renderId,
          account: event.accountId,
          from: event.from,
          to: event.to,
          change: event.change,
          attempt: event.attempt,
          ms: event.ms,
          ...(event.failureCode === undefined ? {} : { failureCode: event.failureCode }),
          ...(event.frames === undefined ? {} : { frames: event.frames, fps: round(event.fps ?? 0) }),
        },
        'render state changed',
      );
    },
    chunkJobFinished(event) {
      logger[event.outcome === 'done' ? 'debug' : 'info']({ ...event }, 'chunk job finished');
    },
    webhookAttempted(event) {
      const fields = {
        renderId: event.renderId,
        account: event.accountId,
        deliveryId: event.deliveryId,
        eventType: event.eventType,
        attempt: event.attempt,
        status: event.status,
        outcome: event.outcome,
        ms: event.ms,
        ...(event.error === undefined ? {} : { error: event.error }),
      };
      if (event.outcome === 'delivered') logger.info(fields, 'webhook delivered');
      else if (event.outcome === 'retry') logger.warn(fields, 'webhook attempt failed');
      else logger.error(fields, 'webhook failed for good');
    },
    jobRetried(event) {
      logger.warn({ ...event }, 'job retried');
    },
    idempotencyConflicted(event) {
      logger.info({ endpoint: event.endpoint, reason: event.reason }, 'idempotency conflict');
    },
  });
}

const PROBES: ReadonlySet<string> = new Set([Route.healthz, Route.readyz, Route.metrics]);
const round = (value: number) => Math.round(value * 100) / 100;
