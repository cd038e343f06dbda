// A scale-out deployment on this machine, as docs/service.md describes one: a throwaway PostgreSQL cluster (the
// tests' own fixture), one `fx service api` process and N `fx service worker` processes started through the real
// command line, one shared data folder, and an API key made by `fx service create-key`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const FX = ['--import', 'tsx', 'src/cli/fx.ts'];
const READY = { api: /listening on (http\S+)/, worker: /^fx render worker running/ };
const START_TIMEOUT_MS = 60_000;

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts the cluster and the API; `addWorkers(n)` / `removeWorkers()` change the worker count between runs. */
export async function startDeployment({ root, log, env = {} }) {
  const { startPostgresCluster } = await tsImport('../../test/fixtures/postgres-cluster.ts', import.meta.url);
  const cluster = await startPostgresCluster();
  const dataDir = await mkdtemp(join(tmpdir(), 'fx-bench-deployment-'));
  const processes = [];
  /** Everything the service processes logged (the workers log each chunk's and each join's cost). */
  const output = { text: '' };
  const stores = ['--data-dir', dataDir, '--database-url', await cluster.createDatabase()];

  const start = async (role, args, extraEnv) => {
    const child = spawn(process.execPath, [...FX, 'service', role, ...stores, ...args], {
      cwd: root,
      env: { ...process.env, ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    processes.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
      output.text += chunk;
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fx service ${role} did not start: ${stderr}`)),
        START_TIMEOUT_MS,
      );
      child.stdout.on('data', (chunk) => {
        const match = READY[role].exec(String(chunk));
        if (match) {
          clearTimeout(timer);
          resolve({ child, url: match[1] });
        }
      });
      child.once('exit', (code) => reject(new Error(`fx service ${role} exited with ${code}: ${stderr}`)));
    });
  };
  const stop = async (child) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };

  try {
    const port = await freePort();
    const api = await start('api', ['--port', String(port)], {});
    log(`api at ${api.url}`);
    const created = spawnSync(process.execPath, [...FX, 'service', 'create-key', '--account', 'bench', ...stores], {
      cwd: root,
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(`fx service create-key failed: ${created.stderr}`);
    const key = created.stdout.trim().split('\n').at(-1);
    const workers = [];
    return {
      url: api.url,
      key,
      output,
      async addWorkers(count, extraEnv = {}) {
        const started = await Promise.all(
          Array.from({ length: count }, () =>
            start('worker', ['--concurrency', '1'], { FX_SERVICE_PUBLIC_URL: api.url, ...extraEnv }),
          ),
        );
        workers.push(...started);
      },
      async removeWorkers() {
        await Promise.all(workers.splice(0).map(({ child }) => stop(child)));
      },
      async close() {
        await Promise.all(processes.map(stop));
        await cluster.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const child of processes) child.kill('SIGKILL');
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
