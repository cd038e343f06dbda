// cloudRender in a real browser against the real service (FFmpeg test renderer): a project naming files it lacks
// is refused before anything is zipped or sent; with allowMissingFiles it renders and the service is told.
import { expect } from '@open-wc/testing';
import { createBrowserSignIn } from '../../src/auth/sign-in.js';
import { cloudRender } from '../../src/client/cloud-render.js';
import { FxApiError } from '../../src/client/errors.js';
import type { CloudRenderProgress } from '../../src/client/progress.js';
import { startService, type TestService } from '../elements/render-button-helpers.js';
import { SERVICE_START_TIMEOUT_MS } from '../auth/fixtures/test-config.js';
import { fromUserClick } from '../user-click.js';

const ENTRY =
  '<!doctype html><html><head><link rel="stylesheet" href="css/main.css"></head><body>' +
  '<div data-composition-id="m" data-width="160" data-height="90" data-duration="0.5">' +
  '<img src="img/gone.png" alt=""><img src="img/ok.png" alt=""></div></body></html>';
const files = [
  { path: 'index.html', data: ENTRY },
  { path: 'css/main.css', data: '@font-face { font-family: F; src: url(../fonts/f.woff2) }' },
  { path: 'img/ok.png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
];

let service: TestService;
let session: ReturnType<typeof createBrowserSignIn>;

before(async function () {
  this.timeout(SERVICE_START_TIMEOUT_MS);
  service = await startService('client-missing-files');
  session = createBrowserSignIn({ issuer: service.issuer, redirectUri: service.redirectUris[0]! });
  if (!(await session.signedIn())) await fromUserClick(() => session.signInWithPopup());
});

describe('cloudRender and missing files, in the browser', () => {
  it('refuses with project_file_missing, each place listed, before anything is zipped or sent', async () => {
    const stages: CloudRenderProgress['stage'][] = [];
    let requests = 0;
    const counted: typeof fetch = (...args) => (requests++, fetch(...args));
    const error = await cloudRender(
      { files },
      { baseUrl: service.url, credentials: session, fetch: counted, onProgress: (p) => stages.push(p.stage) },
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(FxApiError);
    const refusal = error as FxApiError;
    expect(refusal.code).to.equal('project_file_missing');
    expect(refusal.issues?.map((found) => found.path)).to.deep.equal([
      ['index.html', '<img src>', 'img/gone.png'],
      ['css/main.css', 'url()', 'fonts/f.woff2'],
    ]);
    expect(stages).to.deep.equal([]);
    expect(requests).to.equal(0);
  });

  it('with allowMissingFiles, uploads and renders; the record says allow_missing_files', async function () {
    this.timeout(60_000);
    const { render } = await cloudRender(
      { files },
      {
        baseUrl: service.url,
        credentials: session,
        allowMissingFiles: true,
        fps: 4,
        pollInterval: 100,
        download: false,
      },
    );
    expect(render.status).to.equal('completed');
    expect(render.allow_missing_files).to.equal(true);
  });
});
