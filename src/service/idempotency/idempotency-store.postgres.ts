import { transaction, type PgPool } from '../db/postgres.js';
import type { IdempotencyBegin, IdempotencyHold, IdempotencyScope, IdempotencyStore } from './idempotency-store.js';

interface Row {
  request_hash: string;
  state: 'in_flight' | 'done';
  status: number | null;
  body: string | null;
}

const WHERE = 'credential_id = $1 AND endpoint = $2 AND key = $3';
const args = (scope: IdempotencyScope) => [scope.credentialId, scope.endpoint, scope.key];

/**
 * Idempotency keys on PostgreSQL. `begin` claims the key with `INSERT … ON CONFLICT DO NOTHING`: of two requests
 * with one key, in one process or two, the second waits on the first's uncommitted row and then finds it, so
 * exactly one starts.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: PgPool) {}

  async begin(hold: IdempotencyHold, requestHash: string, now: number, expiresAt: number, abandonedBefore: number) {
    return transaction(this.pool, async (client): Promise<IdempotencyBegin> => {
      await client.query(
        `DELETE FROM idempotency_keys WHERE ${WHERE} AND (expires_at <= $4 OR (state = 'in_flight' AND created_at <= $5))`,
        [...args(hold), now, abandonedBefore],
      );
      const inserted = await client.query(
        `INSERT INTO idempotency_keys (credential_id, endpoint, key, request_hash, state, created_at, expires_at, claim)
         VALUES ($1, $2, $3, $4, 'in_flight', $5, $6, $7) ON CONFLICT DO NOTHING`,
        [...args(hold), requestHash, now, expiresAt, hold.claim],
      );
      if (inserted.rowCount === 1) return { state: 'started' };
      const { rows } = await client.query<Row>(
        `SELECT request_hash, state, status, body FROM idempotency_keys WHERE ${WHERE}`,
        args(hold),
      );
      const row = rows[0];
      // Released by its request between the two statements: that request failed, a retry starts afresh.
      if (!row) return { state: 'in_progress' };
      if (row.request_hash !== requestHash) return { state: 'mismatch' };
      if (row.state === 'in_flight') return { state: 'in_progress' };
      return { state: 'replay', status: row.status!, body: row.body! };
    });
  }

  async complete(hold: IdempotencyHold, status: number, body: string) {
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'done', status = $4, body = $5 WHERE ${WHERE} AND claim = $6`,
      [...args(hold), status, body, hold.claim],
    );
  }

  async release(hold: IdempotencyHold) {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND state = 'in_flight' AND claim = $4`, [
      ...args(hold),
      hold.claim,
    ]);
  }

  async clearInFlight() {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE state = 'in_flight'`);
  }

  async purgeExpired(now: number) {
    await this.pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  }
}
