import pg from 'pg';
import { DatabaseError, DatabaseErrorCode } from './errors.js';
import { migrate } from './migrations.postgres.js';

export type PgPool = pg.Pool;
/** A pool or a client inside a transaction: whatever runs a statement. */
export type Queryable = Pick<pg.Pool, 'query'>;

const INT8 = 20;
/**
 * Times are epoch milliseconds in BIGINT columns and counts come back as BIGINT: read both as numbers (exact up to
 * 2^53, years past any timestamp) instead of pg's default strings.
 */
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PostgresOptions {
  /** Connections of this process. Default 10. */
  readonly max?: number;
  /** Errors of connections (a restarted server); a failed one is dropped from the pool, never thrown. */
  readonly log?: (message: string, details?: Record<string, unknown>) => void;
}

/**
 * A connection pool to `url` (`postgres://user:password@host:port/database`) with the service's migrations applied
 * (`migrations.postgres.ts`): the database must exist, its tables are created or brought up to date here.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PgPool> {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:'))
    throw new DatabaseError(
      DatabaseErrorCode.urlInvalid,
      `"databaseUrl" must be a postgres:// URL, got a ${parsed ? `${parsed.protocol} URL` : 'malformed one'}`,
    );
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types: PG_TYPES });
  const lost = (error: Error) => options.log?.('database connection lost', { error: error.message });
  // pg emits a connection's failure on the connection, also while it is checked out between statements, where an
  // unanswered `error` event would end the process (a fault-matrix run saw an API die so on a database restart):
  // every connection answers its own; the statement under way, or the next, still fails. The pool re-emits an idle
  // connection's failure, logged already.
  pool.on('connect', (client) => client.on('error', lost));
  pool.on('error', () => {});
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/**
 * Runs `work` in one transaction on one connection: committed when it returns, rolled back when it throws. A
 * connection that failed mid-way is destroyed, not handed back to the pool; its late `error` event (the server
 * went away) is taken here, as an unhandled one would end the process.
 *
 * A COMMIT whose answer a lost connection took has an unknown outcome: the transaction's id, read before it,
 * lets the server say what became of it ({@link outcomeOf}), so a commit that landed returns as one (else a
 * request failed after its work landed, and the client's retry did it a second time: two assets or renders).
 */
export async function transaction<T>(pool: PgPool, work: (client: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  client.on('error', onError);
  let result: T;
  let xid: string | null;
  try {
    await client.query('BEGIN');
    result = await work(client);
    // Null when the work wrote nothing: then there is no outcome to learn.
    xid = (await client.query<{ xid: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS xid')).rows[0]!
      .xid;
  } catch (error) {
    await client.query('ROLLBACK').catch(onError);
    release(client, broken, onError);
    throw error;
  }
  try {
    await client.query('COMMIT');
  } catch (error) {
    const lost = isConnectionLost(error);
    release(client, broken ?? (lost ? (error as Error) : undefined), onError);
    if (!lost || xid === null) throw error;
    const outcome = await outcomeOf(pool, xid).catch((asking: unknown) => asking);
    if (outcome === 'committed') return result;
    if (outcome === 'aborted') throw error;
    throw new DatabaseError(
      DatabaseErrorCode.commitOutcomeUnknown,
      `transaction ${xid} lost its connection during COMMIT and its outcome could not be learnt (${String(outcome)})`,
      { cause: error },
    );
  }
  release(client, broken, onError);
  return result;
}

function release(client: pg.PoolClient, broken: Error | undefined, onError: (error: Error) => void): void {
  // A broken client keeps the listener: it is discarded, and may still report its end.
  if (!broken) client.off('error', onError);
  client.release(broken);
}

/** Waits between asks of {@link outcomeOf}: about a minute in all, past a database restart. */
export const OUTCOME_RETRY_MS = [50, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 20_000] as const;
const OUTCOME_TOTAL_MS = OUTCOME_RETRY_MS.reduce((sum, delay) => sum + delay, 0);

/**
 * What became of transaction `xid` after its connection was lost during COMMIT: `committed` or `aborted`, asked
 * on another connection while the server is back within {@link OUTCOME_RETRY_MS}. One still in progress had its
 * COMMIT not read yet, or not done: its backend is ended (a backend defers that until a commit under way is over),
 * which settles it either way. Throws when the server cannot be asked (or no longer knows `xid`).
 */
export async function outcomeOf(pool: PgPool, xid: string): Promise<'committed' | 'aborted'> {
  for (let tries = 0; ; tries++) {
    try {
      const { rows } = await pool.query<{ status: string | null }>('SELECT pg_xact_status($1::xid8) AS status', [xid]);
      const status = rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
      if (status !== 'in progress') throw new Error(`the server no longer knows transaction ${xid}`);
      await pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE backend_xid::text = ($1::xid8::text::numeric % 4294967296)::text`,
        [xid],
      );
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
    }
    const delay = OUTCOME_RETRY_MS[tries];
    if (delay === undefined) throw new Error(`no outcome after ${(OUTCOME_TOTAL_MS / 1000).toFixed(0)} s`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * SQLSTATEs of a connection the server ended or would not take: class 08 (connection exception), 57P01–57P03
 * (terminated by an administrator or a crash, the server shutting down or starting up).
 */
const CONNECTION_STATES = /^(08|57P0[123])/;
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether `error` says the connection went away, not that the statement was refused. pg reports a socket that
 * closed mid-query with a bare `Error('Connection terminated…')`, without a code, hence the message test.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (CONNECTION_STATES.test(code) || SOCKET_CODES.has(code))) return true;
  return error instanceof Error && error.message.startsWith('Connection terminated');
}

/** Waits between tries of {@link retryOnConnectionLoss}: about 7 s in all, a restart or a failover's blink. */
export const RECONNECT_DELAYS_MS = [100, 400, 1_500, 5_000] as const;

/**
 * Runs `work` again while it fails because the connection was lost. Only for work that is safe to repeat when a
 * lost COMMIT may have gone through: conditional transitions (`UPDATE … WHERE status = …`) apply once.
 */
export async function retryOnConnectionLoss<T>(work: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await work();
    } catch (error) {
      const delay = RECONNECT_DELAYS_MS[tries];
      if (delay === undefined || !isConnectionLost(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
