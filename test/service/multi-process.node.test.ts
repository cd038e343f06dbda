// API and workers as separate processes on one PostgreSQL database and one data folder: two `api` processes, three
// `worker` processes (child-service.ts, real-time test renderer, 5 s job leases). Runs in `npm run test:postgres`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/service/admin-commands.js';
import { openStores } from '../../src/service/db/open-stores.js';
import { newTestLocation, onPostgres, removeTestLocation, type TestLocation } from './helpers/database.js';
import { compositionHtml, jsonInit, waitFor, zipInit, type RenderJson } from './helpers/harness.js';
import { storedKeys } from './helpers/storage.js';
import { exited, startChild, startReceiver, type ChildService } from './helpers/service-processes.js';
import { projectZip } from './helpers/zip-builder.js';

const skip = onPostgres ? false : 'PostgreSQL only (npm run test:postgres)';
type Render = RenderJson & { attempts: number; progress: { frames_done: number } };

describe('api and worker processes', { skip }, () => {
  let location: TestLocation;
  let auth: Record<string, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const apis: ChildService[] = [];
  const workers: ChildService[] = [];
  let assetId: string;

  before(async () => {
    location = await newTestLocation('fx-multi-process-test-');
    const stores = await openStores(location);
    auth = { authorization: `Bearer ${(await createApiKey(stores, 'multi')).key}` };
    await stores.close();
    receiver = await startReceiver();
    // Sequential starts: the first applies the migrations and installs pg-boss, the others find them.
    for (let i = 0; i < 2; i++) apis.push(await startChild(location, 'api'));
    for (let i = 0; i < 3; i++) workers.push(await startChild(location, 'worker'));
    const upload = await fetch(
      `${apis[0]!.url}/v3/assets`,
      zipInit(projectZip({ 'index.html': compositionHtml({ duration: 2 }) }), auth),
    );
    assetId = ((await upload.json()) as { asset_id: string }).asset_id;
  });
  after(async () => {
    for (const { child } of [...apis, ...workers]) child.kill('SIGKILL');
    await Promise.all([...apis, ...workers].map(({ child }) => exited(child)));
    receiver?.close();
    if (location) await removeTestLocation(location);
  });

  const submit = async (api: ChildService, callbackId: string) =>
    (await (
      await fetch(
        `${api.url}/v3/renders`,
        jsonInit({ asset_id: assetId, fps: 10, callback_url: receiver.url, callback_id: callbackId }, auth),
      )
    ).json()) as RenderJson;
  const get = async (id: string, api = apis[1]!) =>
    (await (await fetch(`${api.url}/v3/renders/${id}`, { headers: auth })).json()) as Render;
  const finished = (id: string) =>
    waitFor(
      async () => {
        const render = await get(id);
        return render.status === 'completed' || render.status === 'failed' ? render : undefined;
      },
      60_000,
      `render ${id} to finish`,
    );
  const deliveriesOf = (callbackId: string) =>
    receiver.received.filter(({ body }) => JSON.parse(body).data.callback_id === callbackId);
  const outputsOf = async (id: string) =>
    (await storedKeys(location.dataDir, location.s3, `renders/${id}/`)).map(({ key }) =>
      key.slice(`renders/${id}/`.length),
    );

  test('renders submitted to either API are each rendered once, by the workers, one webhook each', async () => {
    const submitted = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(apis[i % 2]!, `many-${i}`)));
    for (const { render_id } of submitted) {
      const render = await finished(render_id);
      assert.equal(render.status, 'completed');
      assert.equal(render.attempts, 1);
    }
    const rendered = workers.flatMap(({ rendering }) => rendering);
    assert.deepEqual(
      rendered.filter((id) => submitted.some((render) => render.render_id === id)).sort(),
      submitted.map(({ render_id }) => render_id).sort(),
      'each render started exactly once',
    );
    assert.ok(workers.filter(({ rendering }) => rendering.length > 0).length >= 2, 'the renders were spread');
    assert.equal(apis.flatMap(({ rendering }) => rendering).length, 0, 'an API process rendered');
    await waitFor(() => (submitted.every((_, i) => deliveriesOf(`many-${i}`).length > 0) ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let i = 0; i < 6; i++) assert.equal(deliveriesOf(`many-${i}`).length, 1, `webhook many-${i}`);
  });

  test('kill -9 of the worker mid-render: another worker completes it after the lease, one webhook', async () => {
    const { render_id } = await submit(apis[0]!, 'killed');
    const holder = await waitFor(() => workers.find(({ rendering }) => rendering.includes(render_id)));
    await waitFor(async () => ((await get(render_id)).progress.frames_done > 0 ? true : undefined));
    holder.child.kill('SIGKILL');
    await exited(holder.child);
    workers.splice(workers.indexOf(holder), 1);
    const render = await finished(render_id);
    assert.equal(render.status, 'completed');
    assert.equal(render.attempts, 2);
    assert.ok(
      workers.some(({ rendering }) => rendering.includes(render_id)),
      'no other worker took it over',
    );
    assert.deepEqual(await outputsOf(render_id), ['thumbnail.jpg', 'video.mp4']);
    assert.equal((await fetch(String(render.video_url))).status, 200);
    await waitFor(() => (deliveriesOf('killed').length > 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const deliveries = deliveriesOf('killed');
    assert.equal(deliveries.length, 1);
    assert.match(deliveries[0]!.id, /^msg_/);
  });

  test('a new worker removes finished leftovers; SIGTERM to a worker mid-render hands the render back: another completes it, same attempt', async () => {
    // Leftovers of a killed worker: a finished render's work folder and one of a render that does not exist.
    const finishedId = workers.flatMap(({ rendering }) => rendering)[0]!;
    const leftovers = [join(location.dataDir, 'work', finishedId), join(location.dataDir, 'work', 'rnd_gone')];
    for (const folder of leftovers) await mkdir(folder, { recursive: true });
    workers.push(await startChild(location, 'worker'));
    for (const folder of leftovers) assert.equal(existsSync(folder), false, `${folder} left`);
    const { render_id } = await submit(apis[1]!, 'terminated');
    const holder = await waitFor(() => workers.find(({ rendering }) => rendering.includes(render_id)));
    await waitFor(async () => ((await get(render_id)).progress.frames_done > 0 ? true : undefined));
    holder.child.kill('SIGTERM');
    await exited(holder.child);
    assert.equal(holder.child.exitCode, 0);
    workers.splice(workers.indexOf(holder), 1);
    const render = await finished(render_id);
    assert.equal(render.status, 'completed');
    assert.equal(render.attempts, 1);
    assert.ok(workers.some(({ rendering }) => rendering.includes(render_id)));
    await waitFor(() => (deliveriesOf('terminated').length > 0 ? true : undefined));
    assert.equal(deliveriesOf('terminated').length, 1);
  });
});
