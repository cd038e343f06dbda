import type { PgPool, Queryable } from '../db/postgres.js';
import type { NewWebhookDelivery } from '../renders/render-types.js';
import { toDelivery, type DeliveryRow, type WebhookOutbox } from './outbox.js';

/** Inserts a delivery; called inside the render store's transition so the state and its webhook commit together. */
export async function insertWebhookDelivery(client: Queryable, delivery: NewWebhookDelivery): Promise<void> {
  await client.query(
    `INSERT INTO webhook_deliveries (id, render_id, account_id, url, event_type, event_time, state, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $6)`,
    [delivery.id, delivery.renderId, delivery.accountId, delivery.url, delivery.eventType, delivery.eventTime],
  );
}

export class PostgresWebhookOutbox implements WebhookOutbox {
  constructor(private readonly pool: PgPool) {}

  async pendingCount() {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async claimDue(now: number, limit: number, leaseUntil: number) {
    // Rows another dispatcher is taking at this moment are skipped, not waited for; once it commits they are no
    // longer due.
    const { rows } = await this.pool.query<DeliveryRow>(
      `UPDATE webhook_deliveries SET next_attempt_at = $3
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1
                    ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now, limit, leaseUntil],
    );
    return rows.map(toDelivery);
  }

  async delivered(id: string, attempts: number, status: number, now: number) {
    await this.pool.query(
      `UPDATE webhook_deliveries SET state = 'delivered', attempts = $2, last_status = $3, last_error = NULL, delivered_at = $4 WHERE id = $1`,
      [id, attempts, status, now],
    );
  }

  async retryLater(id: string, attempts: number, nextAttemptAt: number, status: number | null, error: string) {
    await this.pool.query(
      `UPDATE webhook_deliveries SET attempts = $2, next_attempt_at = $3, last_status = $4, last_error = $5 WHERE id = $1`,
      [id, attempts, nextAttemptAt, status, error],
    );
  }

  async abandon(id: string, attempts: number, status: number | null, error: string) {
    await this.pool.query(
      `UPDATE webhook_deliveries SET state = 'failed', attempts = $2, last_status = $3, last_error = $4 WHERE id = $1`,
      [id, attempts, status, error],
    );
  }
}
