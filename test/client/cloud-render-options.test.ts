// cloudRender's options of stills, GIFs, ranges and metadata, and its dry run, in a real browser against the real
// service (FFmpeg test renderer): refusals before anything is zipped or sent, the batch's metadata placeholders, and
// the dry run's calls (upload, one submit with dry_run true; no poll, no download).
import { expect } from '@open-wc/testing';
import { createBrowserSignIn } from '../../src/auth/sign-in.js';
import { cloudRenderBatch } from '../../src/client/cloud-render-batch.js';
import { cloudRender, type CloudRenderOptions } from '../../src/client/cloud-render.js';
import { FxApiError } from '../../src/client/errors.js';
import { isFxError } from '../../src/runtime/errors.js';
import { startService, type TestService } from '../elements/render-button-helpers.js';
import { SERVICE_START_TIMEOUT_MS } from '../auth/fixtures/test-config.js';
import { fromUserClick } from '../user-click.js';

/** 1 s: 30 frames at 30 fps. */
const files = [
  {
    path: 'index.html',
    data:
      '<!doctype html><html><body><div data-composition-id="m" data-width="160" data-height="90" data-duration="1">' +
      '<h1>Hi</h1></div></body></html>',
  },
];

let service: TestService;
let session: ReturnType<typeof createBrowserSignIn>;

before(async function () {
  this.timeout(SERVICE_START_TIMEOUT_MS);
  service = await startService('client-options');
  session = createBrowserSignIn({ issuer: service.issuer, redirectUri: service.redirectUris[0]! });
  if (!(await session.signedIn())) await fromUserClick(() => session.signInWithPopup());
});

/** A fetch that counts every request and keeps the submit bodies. */
function counted() {
  const requests: string[] = [];
  const submits: Record<string, unknown>[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    requests.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    if (init?.method === 'POST' && url.pathname.endsWith('/v3/renders')) submits.push(JSON.parse(String(init.body)));
    return globalThis.fetch(input, init);
  };
  return { fetch, requests, submits };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (isFxError(error) ? error.code : `not an FxError: ${error}`),
  );

describe('cloudRender options in the browser', () => {
  const refusals: [string, Partial<CloudRenderOptions>, string][] = [
    ['gif at 4k', { format: 'gif', resolution: '4k' }, 'resolution_format_unsupported'],
    ['time with mp4', { time: 0.5 }, 'parameter_conflict'],
    ['metadata over 4 KiB', { metadata: { note: 'x'.repeat(4100) } }, 'metadata_too_large'],
    ['a still past the end', { format: 'png', time: 1 }, 'time_outside_duration'],
    ['a range past the end', { range: { start: 0.5, end: 2 } }, 'range_outside_duration'],
  ];
  for (const [name, bad, code] of refusals) {
    it(`${name}: ${code} before anything is zipped or sent`, async () => {
      const { fetch, requests } = counted();
      const stages: string[] = [];
      const error = await cloudRender(
        { files },
        { baseUrl: service.url, credentials: session, fetch, ...bad, onProgress: (p) => stages.push(p.stage) },
      ).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(FxApiError);
      expect((error as FxApiError).code).to.equal(code);
      expect(stages).to.deep.equal([]);
      expect(requests).to.deep.equal([]);
    });
  }

  it('cloudRenderBatch fills metadata from each row; a row without the key refuses the batch before the upload', async () => {
    const { fetch, requests } = counted();
    const options = { baseUrl: service.url, credentials: session, fetch, metadata: { customer: '{id}' } };
    expect(await codeOf(cloudRenderBatch({ files }, [{ id: 'a' }, {}], options))).to.equal(
      'batch_metadata_placeholder_invalid',
    );
    expect(requests).to.deep.equal([]);
    const manifest = await cloudRenderBatch({ files }, [{ id: 'a' }, { id: 7 }], { ...options, noWait: true });
    expect(manifest.map((row) => row.metadata)).to.deep.equal([{ customer: 'a' }, { customer: 7 }]);
  });

  it('dryRun: one upload, one submit with dry_run true, the DryRun answer; no poll, no download', async () => {
    const { fetch, requests, submits } = counted();
    const { dryRun, assetId } = await cloudRender(
      { files },
      { baseUrl: service.url, credentials: session, fetch, format: 'gif', range: { start: 0, end: 0.5 }, dryRun: true },
    );
    expect(submits.map((body) => body.dry_run)).to.deep.equal([true]);
    expect(requests.map((request) => request.replace(/^(\w+) .*(\/v3\/\w+).*$/, '$1 $2'))).to.deep.equal([
      'POST /v3/assets',
      'POST /v3/renders',
    ]);
    expect(assetId).to.match(/^ast_/);
    expect(dryRun.format).to.equal('gif');
    expect(dryRun.fps).to.equal(15);
    expect(dryRun.output?.frames).to.equal(8);
  });
});
