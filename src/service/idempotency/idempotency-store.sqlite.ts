import type { Sqlite } from '../db/sqlite.js';
import type { IdempotencyBegin, IdempotencyHold, IdempotencyScope, IdempotencyStore } from './idempotency-store.js';

interface Row {
  request_hash: string;
  state: 'in_flight' | 'done';
  status: number | null;
  body: string | null;
}

const WHERE = 'credential_id = ? AND endpoint = ? AND key = ?';
const args = (scope: IdempotencyScope) => [scope.credentialId, scope.endpoint, scope.key] as const;

export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly beginTransaction;

  constructor(private readonly db: Sqlite) {
    this.beginTransaction = db.transaction(
      (
        hold: IdempotencyHold,
        requestHash: string,
        now: number,
        expiresAt: number,
        abandonedBefore: number,
      ): IdempotencyBegin => {
        db.prepare(
          `DELETE FROM idempotency_keys WHERE ${WHERE} AND (expires_at <= ? OR (state = 'in_flight' AND created_at <= ?))`,
        ).run(...args(hold), now, abandonedBefore);
        const row = db
          .prepare(`SELECT request_hash, state, status, body FROM idempotency_keys WHERE ${WHERE}`)
          .get(...args(hold)) as Row | undefined;
        if (!row) {
          db.prepare(
            `INSERT INTO idempotency_keys (credential_id, endpoint, key, request_hash, state, created_at, expires_at, claim) VALUES (?, ?, ?, ?, 'in_flight', ?, ?, ?)`,
          ).run(...args(hold), requestHash, now, expiresAt, hold.claim);
          return { state: 'started' };
        }
        if (row.request_hash !== requestHash) return { state: 'mismatch' };
        if (row.state === 'in_flight') return { state: 'in_progress' };
        return { state: 'replay', status: row.status!, body: row.body! };
      },
    );
  }

  async begin(hold: IdempotencyHold, requestHash: string, now: number, expiresAt: number, abandonedBefore: number) {
    return this.beginTransaction.immediate(hold, requestHash, now, expiresAt, abandonedBefore);
  }

  async complete(hold: IdempotencyHold, status: number, body: string) {
    this.db
      .prepare(`UPDATE idempotency_keys SET state = 'done', status = ?, body = ? WHERE ${WHERE} AND claim = ?`)
      .run(status, body, ...args(hold), hold.claim);
  }

  async release(hold: IdempotencyHold) {
    this.db
      .prepare(`DELETE FROM idempotency_keys WHERE ${WHERE} AND state = 'in_flight' AND claim = ?`)
      .run(...args(hold), hold.claim);
  }

  async clearInFlight() {
    this.db.prepare(`DELETE FROM idempotency_keys WHERE state = 'in_flight'`).run();
  }

  async purgeExpired(now: number) {
    this.db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now);
  }
}
