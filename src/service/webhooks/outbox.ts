import type { WebhookEventType } from '../../wire/constants.js';

/** A webhook waiting to be (re)sent. */
export interface WebhookDelivery {
  readonly id: string;
  readonly renderId: string;
  readonly accountId: string;
  readonly url: string;
  readonly eventType: WebhookEventType;
  readonly eventTime: number;
  readonly attempts: number;
}

/**
 * Persisted webhook deliveries (an outbox): rows are created together with the render's final state, and every
 * attempt is recorded, so a restart resumes the retry schedule where it was.
 */
export interface WebhookOutbox {
  /** Pending deliveries due at `now`, oldest first. */
  due(now: number, limit: number): Promise<WebhookDelivery[]>;
  delivered(id: string, attempts: number, status: number, now: number): Promise<void>;
  retryLater(id: string, attempts: number, nextAttemptAt: number, status: number | null, error: string): Promise<void>;
  /** Gives up (attempts exhausted, or the render was deleted). */
  abandon(id: string, attempts: number, status: number | null, error: string): Promise<void>;
}
