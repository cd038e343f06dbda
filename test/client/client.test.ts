// The /v3 client in a real browser: it loads without Node built-ins, talks through the page's fetch, and keeps
// credentials away from signed links. The service side is faked with an injected fetch (Node tests use the real one).
import { expect } from '@open-wc/testing';
import { apiKeyCredentials, FxApiError, FxClient } from '../../src/client/index.js';

const RENDER = {
  render_id: 'rnd_a',
  status: 'completed',
  progress: { stage: 'done', frames_done: 2, frames_total: 2 },
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: '2026-01-01T00:00:01.000Z',
  finished_at: '2026-01-01T00:00:02.000Z',
  attempts: 1,
  failure: null,
  credits: 0.1,
  output: { width: 160, height: 90, frames: 2, duration: 1 },
  video_url: 'https://files.test/v3/files/renders/rnd_a/video.mp4?expires=1&signature=s',
  thumbnail_url: 'https://files.test/v3/files/renders/rnd_a/thumbnail.jpg?expires=1&signature=s',
  expires_at: '2026-01-01T00:15:00.000Z',
  asset_id: 'ast_a',
  url: null,
  page_url: null,
  composition: 'index.html',
  fps: 2,
  quality: 'standard',
  format: 'mp4',
  resolution: '1080p',
  aspect_ratio: '16:9',
  variables: {},
  strict_variables: false,
  allow_missing_files: false,
  callback_url: null,
  callback_id: null,
  warnings: [],
};

function fakeService() {
  const sent: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    if (url.startsWith('https://files.test/'))
      return new Response(new Uint8Array(3000), { headers: { 'content-type': 'video/mp4', 'content-length': '3000' } });
    return new Response(JSON.stringify(RENDER), { headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

describe('the /v3 client in the browser', () => {
  it('reads a render and downloads it through the signed link without credentials', async () => {
    const { fetch, sent } = fakeService();
    const client = new FxClient({ baseUrl: 'https://api.test', credentials: apiKeyCredentials('fx_live_test'), fetch });
    const loaded: number[] = [];
    const video = await client.downloadRender('rnd_a', { onProgress: (progress) => loaded.push(progress.loaded) });
    expect(video.body).to.be.instanceOf(Blob);
    expect(video.body.size).to.equal(3000);
    expect(video.contentType).to.equal('video/mp4');
    expect(loaded.at(-1)).to.equal(3000);
    expect(new Headers(sent[0]!.init.headers).get('authorization')).to.equal('Bearer fx_live_test');
    const download = sent[1]!;
    expect(download.url).to.equal(RENDER.video_url);
    expect(new Headers(download.init.headers).has('authorization')).to.equal(false);
    expect(download.init.credentials).to.equal('omit');
  });

  it('refuses a hostile id before any request', async () => {
    const { fetch, sent } = fakeService();
    const error = await new FxClient({ baseUrl: 'https://api.test', fetch })
      .getRender('../account')
      .catch((error: unknown) => error);
    expect(error).to.be.instanceOf(FxApiError);
    expect((error as FxApiError).code).to.equal('parameter_invalid');
    expect(sent).to.have.length(0);
  });

  it("resolves a relative base URL against the page and uses the page's fetch", async () => {
    // The test server has no /v3 routes: a 404 page that is not the error body.
    const error = await new FxClient({ baseUrl: '/no-service', retry: false })
      .getAccount()
      .catch((error: unknown) => error);
    expect(error).to.be.instanceOf(FxApiError);
    expect((error as FxApiError).code).to.equal('http_error');
    expect((error as FxApiError).status).to.equal(404);
  });
});
