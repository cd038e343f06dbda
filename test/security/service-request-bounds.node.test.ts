// Issue 8 items 14-16: what the submit endpoint answers for a folder named as the composition, for deeply nested
// variables, and what the record says about frames before the renderer knows them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jsonInit, startTestService, uploadProject, type TestService } from '../service/helpers/harness.js';

let service: TestService;
let assetId: string;
const html = `<!doctype html><html><body><div data-composition-id="main" data-width="160" data-height="90" data-duration="0.5"></div></body></html>`;

before(async () => {
  service = await startTestService();
  assetId = await uploadProject(service, { 'index.html': html, 'scenes/intro.html': html });
});
after(() => service.close());

const submit = (body: unknown) => service.api('/v3/renders', jsonInit(body));
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; param: string | null } }).error;

test('a "composition" naming a folder inside the asset answers 422 composition_not_found', async () => {
  for (const composition of ['scenes', 'scenes/']) {
    const response = await submit({ asset_id: assetId, composition });
    assert.equal(response.status, 422, composition);
    const error = await errorOf(response);
    assert.deepEqual([error.code, error.param], ['composition_not_found', 'composition'], composition);
  }
  assert.equal(await service.count('renders'), 0);
});

/** `variables` nested `levels` deep, the object itself being level 1: `{ "v": { "v": … 1 } }`. */
const nested = (levels: number) =>
  JSON.parse(`${'{"v":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}`) as Record<string, unknown>;
/** The same as raw JSON, for depths `JSON.stringify` itself cannot write. */
const rawBody = (levels: number, open = '{"v":', close = '}') =>
  `{"asset_id":"${assetId}","variables":${open.repeat(levels)}1${close.repeat(levels)}}`;
const submitRaw = (body: string) =>
  service.api('/v3/renders', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

test('variables nested deeper than the limit answer 400 variables_too_deep at once, whatever the depth', async () => {
  // 4 100 levels (an 8 KB body) overflowed the stack in JSON.stringify (500); 3 000 were accepted, then failed the render.
  for (const [levels, open, close] of [
    [17, '{"v":', '}'],
    [3_000, '{"v":', '}'],
    [4_100, '{"v":', '}'],
    [4_100, '[', ']'],
    [200_000, '[', ']'],
  ] as const) {
    const response = await submitRaw(rawBody(levels, open, close));
    assert.equal(response.status, 400, `${levels} levels of ${open}`);
    const error = await errorOf(response);
    assert.deepEqual([error.code, error.param], ['variables_too_deep', 'variables'], `${levels} levels of ${open}`);
  }
  assert.equal(await service.count('renders'), 0, 'nothing was stored');
});

test('variables as deep as real ones (a font value, 16 levels) are accepted', async () => {
  const font = await submit({
    asset_id: assetId,
    variables: { headline: { name: 'Inter', source: 'https://fonts.example/inter.woff2' } },
  });
  assert.equal(font.status, 202, await font.clone().text());
  const limit = await submit({ asset_id: assetId, variables: nested(16) });
  assert.equal(limit.status, 202, await limit.clone().text());
});

test('a deep value under another field is refused as that field, never a 500', async () => {
  const response = await submitRaw(
    `{"asset_id":"${assetId}","callback_id":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  );
  assert.equal(response.status, 400);
  const error = await errorOf(response);
  assert.deepEqual([error.code, error.param], ['parameter_invalid', 'callback_id']);
});
