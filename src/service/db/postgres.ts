import pg from 'pg';
import { DatabaseError } from './errors.js';
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
      'database_url_invalid',
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
 */
export async function transaction<T>(pool: PgPool, work: (client: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(onError);
    throw error;
  } finally {
    // A broken client keeps the listener: it is discarded, and may still report its end.
    if (!broken) client.off('error', onError);
    client.release(broken);
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
