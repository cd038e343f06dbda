// The API under load: `clients` concurrent clients, each submitting a render and reading it back in a loop for
// `seconds` (after a warm-up), with no worker running (renders only queue). Latency per request kind.
import { percentile } from '../lib/stats.mjs';

export async function measureApiLoad({ url, key, assetId, clients, warmupSeconds, seconds }) {
  const headers = { authorization: `Bearer ${key}` };
  const latencies = { submit: [], get: [] };
  let errors = 0;
  let recording = false;
  const timed = async (kind, request) => {
    const started = performance.now();
    const response = await request();
    const body = await response.json();
    if (!response.ok) errors += 1;
    else if (recording) latencies[kind].push(performance.now() - started);
    return body;
  };
  let running = true;
  const client = async () => {
    while (running) {
      const submitted = await timed('submit', () =>
        fetch(`${url}/v3/renders`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ asset_id: assetId, composition: 'index.html' }),
        }),
      );
      if (submitted.render_id) await timed('get', () => fetch(`${url}/v3/renders/${submitted.render_id}`, { headers }));
    }
  };
  const all = Promise.all(Array.from({ length: clients }, client));
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
  recording = true;
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recording = false;
  running = false;
  await all;
  const requests = latencies.submit.length + latencies.get.length;
  return {
    latencies,
    details: {
      clients,
      seconds,
      requestsPerSecond: Math.round(requests / seconds),
      submitsPerSecond: Math.round(latencies.submit.length / seconds),
      errors,
      p99: { submit: percentile(latencies.submit, 99), get: percentile(latencies.get, 99) },
    },
  };
}
