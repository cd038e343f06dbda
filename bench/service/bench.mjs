// Benchmark: the render service scaled out (issue 14, item 5), as docs/service.md deploys it — PostgreSQL, one
// `fx service api`, 1 or 2 `fx service worker` processes — on this machine: renders per minute and submit →
// completed for 20 short renders; a 60 s 1080p render as one job and chunked over 2 workers; the API's latency
// under 50 concurrent clients. Times of renders come from the records (`created_at` → `finished_at`).
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { measureApiLoad } from './api-load.mjs';
import { startDeployment } from './deployment.mjs';

export const name = 'service';
export const description =
  'render service on PostgreSQL + worker processes: 20 short renders with 1 and 2 workers, 60 s 1080p one job vs chunked, API p50/p99 under 50 clients';

const PROJECT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'project');
const SHORT = { composition: 'index.html', count: 20 };
const LONG = { composition: 'long.html' };
/** The workers' chunk setting (docs/service.md, "Chunked renders"): the 60 s render split over both workers. */
const CHUNKED = { FX_SERVICE_CHUNK_WORKERS: '2' };
// Logged by the workers (src/service/jobs) with their details object (which may span lines): each chunk's and each
// join's `ms`.
const CHUNK_DONE = /render chunk done \{[^}]*\bms: (\d+)/g;
const JOINED = /render joined \{[^}]*\bms: (\d+)/g;
const WORKER_COUNTS = [1, 2];
const API_LOAD = { clients: 50, warmupSeconds: 2, seconds: 15 };
const POLL_MS = 250;
/** `FX_BENCH_SERVICE_PARTS=long,api` runs only those parts (default: all three). */
const PARTS_ENV = 'FX_BENCH_SERVICE_PARTS';
const PARTS = ['batch', 'long', 'api'];

export async function run(context) {
  const parts = new Set((process.env[PARTS_ENV] || PARTS.join(',')).split(',').map((part) => part.trim()));
  const unknown = [...parts].filter((part) => !PARTS.includes(part));
  if (unknown.length > 0)
    throw new Error(`${PARTS_ENV}: unknown part(s) ${unknown.join(', ')}; expected ${PARTS.join(', ')}`);
  const deployment = await startDeployment({ root: context.root, log: context.log });
  try {
    const api = client(deployment);
    const assetId = await api.upload(await projectZip());
    const metrics = [];
    const details = {};
    for (const workers of parts.has('batch') ? WORKER_COUNTS : []) {
      await deployment.addWorkers(workers);
      const batch = await renderBatch(api, assetId, context.log);
      await deployment.removeWorkers();
      const label = `${workers} worker${workers > 1 ? 's' : ''}`;
      metrics.push({
        name: `submit → completed, ${SHORT.count} short renders, ${label}`,
        unit: 'ms',
        samples: batch.times,
      });
      details[label] = { rendersPerMinute: batch.rendersPerMinute, wallMs: batch.wallMs };
      context.log(`${label}: ${batch.rendersPerMinute} renders/min`);
    }
    if (parts.has('long')) await measureLong(deployment, api, assetId, { metrics, details });
    if (parts.has('api')) {
      const load = await measureApiLoad({ ...API_LOAD, url: deployment.url, key: deployment.key, assetId });
      metrics.push({ name: `API submit, ${API_LOAD.clients} clients`, unit: 'ms', samples: load.latencies.submit });
      metrics.push({ name: `API get, ${API_LOAD.clients} clients`, unit: 'ms', samples: load.latencies.get });
      details.api = load.details;
    }
    return { metrics, details };
  } finally {
    await deployment.close();
  }
}

/** The 60 s render as one job, then chunked over both workers, with the workers' own chunk and join costs. */
async function measureLong(deployment, api, assetId, { metrics, details }) {
  const long = { asset_id: assetId, composition: LONG.composition };
  await deployment.addWorkers(2);
  const oneJob = await renderOne(api, long);
  await deployment.removeWorkers();
  await deployment.addWorkers(2, CHUNKED);
  const logStart = deployment.output.text.length;
  const chunked = await renderOne(api, long);
  await deployment.removeWorkers();
  const logged = deployment.output.text.slice(logStart);
  const costs = (pattern) => [...logged.matchAll(pattern)].map((match) => Number(match[1]));
  metrics.push({ name: '60 s 1080p render, one job (2 workers up)', unit: 'ms', samples: [oneJob.ms] });
  metrics.push({ name: '60 s 1080p render, chunked over 2 workers', unit: 'ms', samples: [chunked.ms] });
  metrics.push({ name: '60 s 1080p chunk (render + store)', unit: 'ms', samples: costs(CHUNK_DONE) });
  metrics.push({
    name: '60 s 1080p join (download, concat, audio, thumbnail, store)',
    unit: 'ms',
    samples: costs(JOINED),
  });
  details.long = {
    frames: { oneJob: oneJob.frames, chunked: chunked.frames },
    speedup: Math.round((oneJob.ms / chunked.ms) * 100) / 100,
    chunkSettings: CHUNKED,
  };
}

async function projectZip() {
  const files = {};
  for (const name of await readdir(PROJECT_DIR)) files[name] = new Uint8Array(await readFile(join(PROJECT_DIR, name)));
  return zipSync(files);
}

/** The few /v3 calls the benchmark makes, with the deployment's key. */
function client({ url, key }) {
  const headers = { authorization: `Bearer ${key}` };
  const call = async (path, init = {}) => {
    const response = await fetch(`${url}${path}`, { ...init, headers: { ...headers, ...init.headers } });
    const body = await response.json();
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  return {
    async upload(zip) {
      const body = await call('/v3/assets', {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: zip,
      });
      return body.asset_id;
    },
    submit: (request) =>
      call('/v3/renders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    get: (id) => call(`/v3/renders/${id}`),
  };
}

async function finished(api, id) {
  for (;;) {
    const render = await api.get(id);
    if (render.status === 'completed') return render;
    if (render.status === 'failed') throw new Error(`render ${id} failed: ${JSON.stringify(render.error)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const elapsed = (render) => Date.parse(render.finished_at) - Date.parse(render.created_at);

async function renderBatch(api, assetId, log) {
  const submitted = await Promise.all(
    Array.from({ length: SHORT.count }, () => api.submit({ asset_id: assetId, composition: SHORT.composition })),
  );
  const renders = [];
  for (const { render_id } of submitted) {
    renders.push(await finished(api, render_id));
    log(`${renders.length}/${SHORT.count} completed`);
  }
  const first = Math.min(...renders.map((render) => Date.parse(render.created_at)));
  const last = Math.max(...renders.map((render) => Date.parse(render.finished_at)));
  const wallMs = last - first;
  return {
    times: renders.map(elapsed),
    wallMs,
    rendersPerMinute: Math.round((SHORT.count / wallMs) * 60_000 * 10) / 10,
  };
}

async function renderOne(api, request) {
  const { render_id } = await api.submit(request);
  const render = await finished(api, render_id);
  return { ms: elapsed(render), frames: render.output?.frames };
}
