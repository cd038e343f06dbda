import type { Sqlite } from '../db/sqlite.js';
import type { NewWebhookDelivery } from '../renders/render-types.js';
import { toDelivery, type DeliveryRow as Row, type WebhookOutbox } from './outbox.js';

/** Inserts a delivery; called inside the render store's transition so the state and its webhook commit together. */
export function insertWebhookDelivery(db: Sqlite, delivery: NewWebhookDelivery): void {
  db.prepare(
    `INSERT INTO webhook_deliveries (id, render_id, account_id, url, event_type, event_time, state, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)`,
  ).run(
    delivery.id,
    delivery.renderId,
    delivery.accountId,
    delivery.url,
    delivery.eventType,
    delivery.eventTime,
    delivery.eventTime,
  );
}

export class SqliteWebhookOutbox implements WebhookOutbox {
  constructor(private readonly db: Sqlite) {}

  async pendingCount() {
    return (
      this.db.prepare(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'`).get() as { n: number }
    ).n;
  }

  async claimDue(now: number, limit: number, leaseUntil: number) {
    // One statement, and SQLite has one writer at a time: nothing can take the same rows in between.
    const rows = this.db
      .prepare(
        `UPDATE webhook_deliveries SET next_attempt_at = ?
         WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?)
         RETURNING *`,
      )
      .all(leaseUntil, now, limit) as Row[];
    return rows.map(toDelivery);
  }

  async delivered(id: string, attempts: number, status: number, now: number) {
    this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'delivered', attempts = ?, last_status = ?, last_error = NULL, delivered_at = ? WHERE id = ?`,
      )
      .run(attempts, status, now, id);
  }

  async retryLater(id: string, attempts: number, nextAttemptAt: number, status: number | null, error: string) {
    this.db
      .prepare(
        `UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ? WHERE id = ?`,
      )
      .run(attempts, nextAttemptAt, status, error, id);
  }

  async abandon(id: string, attempts: number, status: number | null, error: string) {
    this.db
      .prepare(
        `UPDATE webhook_deliveries SET state = 'failed', attempts = ?, last_status = ?, last_error = ? WHERE id = ?`,
      )
      .run(attempts, status, error, id);
  }
}
