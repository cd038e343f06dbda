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
 * Persisted webhook deliveries (an outbox; `outbox.sqlite.ts`, `outbox.postgres.ts`): rows are created together with the render's final state, and every
 * attempt is recorded, so a restart resumes the retry schedule where it was.
 */
export interface WebhookOutbox {
  /**
   * Takes up to `limit` pending deliveries due at `now` and holds them until `leaseUntil` (their next attempt moves
   * there), so another dispatcher on the same database does not send them too; `delivered`, `retryLater` or
   * `abandon` end the hold. A dispatcher that dies holding one leaves it to be sent again once the hold ends.
   */
  claimDue(now: number, limit: number, leaseUntil: number): Promise<WebhookDelivery[]>;
  delivered(id: string, attempts: number, status: number, now: number): Promise<void>;
  retryLater(id: string, attempts: number, nextAttemptAt: number, status: number | null, error: string): Promise<void>;
  /** Gives up (attempts exhausted, or the render was deleted). */
  abandon(id: string, attempts: number, status: number | null, error: string): Promise<void>;
  /** Deliveries still to be sent or retried (the outbox backlog, `/metrics`). */
  pendingCount(): Promise<number>;
}

/** A row of `webhook_deliveries`, as both databases return it. */
export interface DeliveryRow {
  id: string;
  render_id: string;
  account_id: string;
  url: string;
  event_type: WebhookDelivery['eventType'];
  event_time: number;
  attempts: number;
}

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  renderId: row.render_id,
  accountId: row.account_id,
  url: row.url,
  eventType: row.event_type,
  eventTime: row.event_time,
  attempts: row.attempts,
});
