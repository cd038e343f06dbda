// The in-page half of the upload figure (browser code): the zip benchmark's 100 MB project, zipped once, uploaded
// with `FxClient.uploadAsset` to the bench's own service, cross-origin (the service answers with CORS headers).
import { buildProject, MB } from './page.mjs';

export async function measureUpload({ clientUrl, baseUrl, apiKey, warmup, samples }) {
  const { FxClient, apiKeyCredentials, zipProject } = await import(clientUrl);
  const { zip } = await zipProject(buildProject(), { ignore: false });
  const client = new FxClient({ baseUrl, credentials: apiKeyCredentials(apiKey) });
  const times = [];
  const throughput = [];
  const assets = new Set();
  for (let run = 0; run < warmup + samples; run++) {
    const start = performance.now();
    // No idempotency key given: the client makes a new one per call, so each upload stores a new asset.
    const asset = await client.uploadAsset(zip);
    const elapsed = performance.now() - start;
    assets.add(asset.asset_id);
    if (run < warmup) continue;
    times.push(elapsed);
    throughput.push(zip.size / MB / (elapsed / 1000));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (assets.size !== warmup + samples)
    throw new Error(`expected ${warmup + samples} distinct assets, got ${assets.size}`);
  return { times, throughput, details: { zipBytes: zip.size } };
}
