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
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; param: string | null } }).error;

test('a "composition" naming a folder inside the asset answers 422 composition_not_found', async () => {
  for (const composition of ['scenes', 'scenes/']) {
    const response = await submit({ asset_id: assetId, composition });
    assert.equal(response.status, 422, composition);
    const error = await errorOf(response);
    assert.deepEqual([error.code, error.param], ['composition_not_found', 'composition'], composition);
  }
  assert.equal(service.count('renders'), 0);
});
