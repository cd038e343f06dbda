/**
 * The faults of the fault matrix (test/service/fault-matrix.node.test.ts), injected one after another while renders
 * are submitted and rendered by several API and worker processes. To add one, append it to `FAULTS`: it gets the
 * processes, the database and the proxy in between, and returns a line for the test's diagnostics.
 */
import pg from 'pg';
import type { PostgresCluster } from '../../fixtures/postgres-cluster.js';
import type { TcpProxy } from '../../fixtures/tcp-proxy.js';
import { waitFor } from './harness.js';
import { exited, type ChildService } from './service-processes.js';

export interface FaultContext {
  readonly cluster: PostgresCluster;
  /** Between every service process and PostgreSQL. */
  readonly proxy: TcpProxy;
  /** The worker processes now; a fault that kills one removes it and starts its replacement. */
  readonly workers: ChildService[];
  startWorker(): Promise<ChildService>;
  /** Rows of a query, on a connection of the test's own straight to the cluster (not through the proxy). */
  query<Row extends object>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Fault {
  readonly name: string;
  /** The renders of the wave in flight when it is injected are long enough to be split into chunks. */
  readonly chunkedWave?: boolean;
  /** Injects the fault and returns what it did. */
  inject(context: FaultContext): Promise<string>;
}

/** `kill -9` of `worker`, and a new worker in its place. */
async function killAndReplace(
  worker: ChildService,
  { workers, startWorker }: Pick<FaultContext, 'workers' | 'startWorker'>,
): Promise<void> {
  worker.child.kill('SIGKILL');
  await exited(worker.child);
  workers.splice(workers.indexOf(worker), 1);
  workers.push(await startWorker());
}

export const FAULTS: readonly Fault[] = [
  {
    name: 'kill -9 of a worker mid-render',
    async inject({ workers, query, startWorker }) {
      const { id, worker } = await waitFor(
        async () => {
          const rows = await query<{ id: string }>(
            `SELECT id FROM renders WHERE status = 'rendering' AND frames_done > 0 ORDER BY seq`,
          );
          for (const { id } of rows) {
            // The last process that started it holds it (a render is taken over only after its holder died).
            const worker = workers.findLast(({ rendering }) => rendering.includes(id));
            if (worker) return { id, worker };
          }
          return undefined;
        },
        60_000,
        'a render mid-way on a worker',
      );
      await killAndReplace(worker, { workers, startWorker });
      return `killed the worker (pid ${worker.child.pid}) rendering ${id}; started another`;
    },
  },
  {
    name: 'kill -9 of a worker mid-chunk',
    chunkedWave: true,
    async inject({ workers, query, startWorker }) {
      const { renderId, index, worker } = await waitFor(
        async () => {
          const rows = await query<{ render_id: string; idx: number; worker: string }>(
            `SELECT render_id, idx, worker FROM render_chunks WHERE status = 'rendering' AND frames_done > 0`,
          );
          for (const row of rows) {
            // A chunk names its worker `<host>:<pid>` (ServiceConfig.workerId).
            const pid = Number(row.worker.split(':').at(-1));
            const worker = workers.find(({ child }) => child.pid === pid);
            if (worker) return { renderId: row.render_id, index: row.idx, worker };
          }
          return undefined;
        },
        60_000,
        'a chunk mid-way on a worker',
      );
      await killAndReplace(worker, { workers, startWorker });
      return `killed the worker (pid ${worker.child.pid}) rendering chunk ${index} of ${renderId}; started another`;
    },
  },
  {
    name: 'dropped database connections',
    async inject({ proxy }) {
      return `cut ${proxy.cut()} open connections between the processes and PostgreSQL`;
    },
  },
  {
    name: 'database restart',
    async inject({ cluster }) {
      const started = Date.now();
      await cluster.restart();
      return `stopped and started PostgreSQL (${Date.now() - started} ms down)`;
    },
  },
];

/** `query` of a {@link FaultContext}: a connection per call, so a restart between two calls does not matter. */
export function directQuery(url: string) {
  return async <Row extends object>(sql: string, params: unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Row[];
    } finally {
      await client.end().catch(() => {});
    }
  };
}
