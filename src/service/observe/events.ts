/**
 * The service's observation point: the places that decide (the HTTP app, the render state transitions, the chunk
 * jobs, the webhook dispatcher, the job queue, the idempotency layer, readiness, retention) say what happened here, once, and
 * the metrics (metrics.ts) and the structured log (logger.ts) subscribe. A subscriber that throws is ignored: being
 * observed never changes what the service does.
 */
import type { RenderStatus } from '../../wire/constants.js';
import type { RenderTransition } from '../renders/render-state.js';

/** One HTTP request answered. */
export interface RequestFinished {
  readonly method: string;
  /** The matched route's pattern (`/v3/renders/:render_id`), `unmatched` for a 404 of no route. */
  readonly route: string;
  /** The path without its query (signed links carry their signature in it). */
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  readonly requestId: string;
  /** The client's address: the connection's peer, or behind a trusted proxy the address it forwarded. */
  readonly client: string;
  readonly accountId?: string;
  /** The render the request submitted, read or deleted. */
  readonly renderId?: string;
}

/** How a render came to its state: a transition of render-state.ts, or its submit. */
export type RenderChange = RenderTransition | 'submit';

/** A render moved from one state to another (or into `queued` at submit, from none). */
export interface RenderStateChanged {
  readonly renderId: string;
  readonly accountId: string;
  readonly from: RenderStatus | null;
  readonly to: RenderStatus;
  readonly change: RenderChange;
  /** The render's attempt after the change. */
  readonly attempt: number;
  /** How long it was in `from`, as far as this process knows (see observed-renders.ts); 0 at submit. */
  readonly ms: number;
  readonly failureCode?: string;
  /** A completed render's frames, and their rate over its time in `rendering`. */
  readonly frames?: number;
  readonly fps?: number;
}

export const ChunkOutcome = {
  done: 'done',
  retry: 'retry',
  failed: 'failed',
  handedBack: 'handed_back',
} as const;
export type ChunkOutcome = (typeof ChunkOutcome)[keyof typeof ChunkOutcome];

/** One attempt of a chunk job of a chunked render ended. */
export interface ChunkJobFinished {
  readonly renderId: string;
  readonly chunk: number;
  readonly attempt: number;
  readonly outcome: ChunkOutcome;
  readonly frames: number;
  readonly ms: number;
  readonly failureCode?: string;
}

export const WebhookOutcome = {
  delivered: 'delivered',
  /** Not delivered; tried again later. */
  retry: 'retry',
  /** Not delivered, and given up: attempts used up, or the render was deleted. */
  abandoned: 'abandoned',
} as const;
export type WebhookOutcome = (typeof WebhookOutcome)[keyof typeof WebhookOutcome];

/** One delivery attempt of a webhook. */
export interface WebhookAttempted {
  readonly renderId: string;
  readonly accountId: string;
  readonly deliveryId: string;
  readonly eventType: string;
  readonly attempt: number;
  /** The receiver's HTTP status; null when it gave none (refused, timed out). */
  readonly status: number | null;
  readonly outcome: WebhookOutcome;
  readonly error?: string;
  readonly ms: number;
}

/** A job runs again: pg-boss brought it back (a handler error or an expired lease), or a failed chunk was queued again. */
export interface JobRetried {
  readonly renderId: string;
  readonly chunk?: number;
  /** The retry's number: 1 for the first. */
  readonly retry: number;
  readonly reason: 'queue' | 'chunk_failed';
}

/** A request with an `Idempotency-Key` refused: another body under the key, or its first request still running. */
export interface IdempotencyConflicted {
  readonly endpoint: string;
  readonly reason: 'mismatch' | 'in_progress';
  readonly credentialId: string;
}

/** Retention removed a render's or an asset's stored files (jobs/retention-sweep.ts); the record stays. */
export interface FilesRemoved {
  readonly kind: 'render' | 'asset';
  readonly id: string;
  /** A render's files: expired (finished longer ago than retention) or deleted; an asset's: unused. */
  readonly reason: 'expired' | 'deleted' | 'unused';
}

export interface ReadinessCheckFailed {
  readonly check: string;
  readonly error: string;
}

/** Every event, by name. */
export interface ServiceEventMap {
  requestFinished: RequestFinished;
  renderStateChanged: RenderStateChanged;
  chunkJobFinished: ChunkJobFinished;
  webhookAttempted: WebhookAttempted;
  jobRetried: JobRetried;
  idempotencyConflicted: IdempotencyConflicted;
  readinessCheckFailed: ReadinessCheckFailed;
  filesRemoved: FilesRemoved;
}

/** A subscriber: a handler for any of the events. */
export type ServiceObserver = { readonly [Name in keyof ServiceEventMap]?: (event: ServiceEventMap[Name]) => void };

/** The hook: `emit` where something is decided, `subscribe` to hear it. One per service instance. */
export class ServiceEvents {
  private readonly observers: ServiceObserver[] = [];

  subscribe(observer: ServiceObserver): void {
    this.observers.push(observer);
  }

  emit<Name extends keyof ServiceEventMap>(name: Name, event: ServiceEventMap[Name]): void {
    for (const observer of this.observers)
      try {
        (observer[name] as ((event: ServiceEventMap[Name]) => void) | undefined)?.(event);
      } catch {
        // Observing never fails the work observed.
      }
  }
}
