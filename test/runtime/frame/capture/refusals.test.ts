// Issue 33 §1: what a rasteriser cannot capture faithfully is refused at capture-start, each refusal naming its code
// and where in the composition; the same composition without the culprit (or with the files sent) is accepted.
import { expect } from '@open-wc/testing';
import type { CaptureRasteriser, CaptureRefusal } from '../../../../src/runtime/capture-codes.js';
import { CaptureFrame, htmlInCanvasHere, pixelsOf, resourcesOf } from './capture-frame.js';

const composition = (inside: string, script = '') => `<!doctype html><html><head><style>
  body { margin: 0; } #stage { position: relative; width: 320px; height: 180px; background: #fff; }
</style></head><body>
  <div id="stage" data-composition-id="main" data-width="320" data-height="180" data-duration="1">${inside}</div>
  <script>${script}</script>
</body></html>`;

const codesAndPlaces = (refusals: readonly CaptureRefusal[]) => refusals.map(({ code, where }) => [code, where]);

async function started(html: string, rasteriser: CaptureRasteriser | 'auto', resources: string[] = []) {
  const frame = await CaptureFrame.open(html);
  return frame.start(rasteriser, 320, 180, await resourcesOf(...resources));
}

/** The rasterisers this browser has; HTML-in-Canvas only in the flagged Chromium run. */
const here: CaptureRasteriser[] = ['foreign-object', ...(htmlInCanvasHere() ? (['html-in-canvas'] as const) : [])];

describe('capture refusals', () => {
  it('foreignObject: an image or a background not sent and not inline is "capture_cross_origin_image"', async () => {
    const html = composition(
      '<img id="far" src="basic/pic.svg"><div id="bg" style="width:9px;height:9px;background-image:url(basic/logo.svg)"></div>' +
        '<img id="inline" src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E">',
    );
    const answer = await started(html, 'foreign-object');
    expect(answer.rasteriser).to.equal(null);
    expect(codesAndPlaces(answer.refusals)).to.deep.equal([
      ['capture_cross_origin_image', 'div#stage > img#far'],
      ['capture_cross_origin_image', 'div#stage > div#bg'],
    ]);
    expect(answer.refusals[0]!.message).to.include(new URL('/test/fixtures/basic/pic.svg', location.href).href);
    const sent = await started(html, 'foreign-object', ['basic/pic.svg', 'basic/logo.svg']);
    expect([sent.rasteriser, sent.refusals]).to.deep.equal(['foreign-object', []]);
  });

  it('an <iframe>, <object> or <embed> is "capture_nested_frame", for every rasteriser', async () => {
    const html = composition(
      '<section><iframe id="inner" srcdoc="<p>hi</p>"></iframe></section><object data="data:text/plain,x"></object>' +
        '<embed src="data:text/plain,x">',
    );
    for (const rasteriser of here) {
      const answer = await started(html, rasteriser);
      expect(answer.rasteriser, rasteriser).to.equal(null);
      expect(codesAndPlaces(answer.refusals), rasteriser).to.deep.equal([
        ['capture_nested_frame', 'div#stage > section > iframe#inner'],
        ['capture_nested_frame', 'div#stage > object'],
        ['capture_nested_frame', 'div#stage > embed'],
      ]);
    }
  });

  it('a WebGL canvas without preserveDrawingBuffer is "capture_webgl_unreadable"; with it, accepted', async function () {
    if (!document.createElement('canvas').getContext('webgl')) return this.skip();
    const script = `
      document.getElementById('lost').getContext('webgl');
      document.getElementById('kept').getContext('webgl', { preserveDrawingBuffer: true });
      document.getElementById('flat').getContext('2d').fillRect(0, 0, 4, 4);`;
    const html = composition(
      '<canvas id="lost" width="8" height="8"></canvas><canvas id="kept" width="8" height="8"></canvas><canvas id="flat"></canvas>',
      script,
    );
    for (const rasteriser of here) {
      const answer = await started(html, rasteriser);
      // HTML-in-Canvas refuses every <canvas> besides (capture-check.ts): only the WebGL refusals are this test's.
      const webgl = answer.refusals.filter(({ code }) => code === 'capture_webgl_unreadable');
      expect(codesAndPlaces(webgl), rasteriser).to.deep.equal([
        ['capture_webgl_unreadable', 'div#stage > canvas#lost'],
      ]);
    }
    const without = composition('<canvas id="kept"></canvas>', script.split('\n')[2]);
    expect((await started(without, 'foreign-object')).refusals).to.deep.equal([]);
  });

  it('foreignObject: a video of another origin without CORS is "capture_cross_origin_video"; with CORS, accepted', async () => {
    const video = (attributes: string) =>
      composition(`<video id="clip" muted ${attributes} src="/test/fixtures/media/frames.webm"></video>`);
    const answer = await started(video(''), 'foreign-object');
    expect(answer.rasteriser).to.equal(null);
    expect(codesAndPlaces(answer.refusals)).to.deep.equal([['capture_cross_origin_video', 'div#stage > video#clip']]);
    const cors = await started(video('crossorigin'), 'foreign-object');
    expect([cors.rasteriser, cors.refusals]).to.deep.equal(['foreign-object', []]);
  });

  it('HTML-in-Canvas where the browser has none is "capture_rasteriser_unavailable"; auto falls back to foreignObject', async function () {
    if (htmlInCanvasHere()) return this.skip();
    const html = composition('<p>hi</p>');
    const answer = await started(html, 'html-in-canvas');
    expect(answer.rasteriser).to.equal(null);
    expect(codesAndPlaces(answer.refusals)).to.deep.equal([['capture_rasteriser_unavailable', '']]);
    expect((await started(html, 'auto')).rasteriser).to.equal('foreign-object');
  });

  it('auto takes HTML-in-Canvas where the browser has it', async function () {
    if (!htmlInCanvasHere()) return this.skip();
    const answer = await started(composition('<p>hi</p>'), 'auto');
    expect([answer.rasteriser, answer.refusals]).to.deep.equal(['html-in-canvas', []]);
  });

  it('HTML-in-Canvas: an image or a background not sent is refused (drawElementImage leaves it out); sent, it is drawn', async function () {
    if (!htmlInCanvasHere()) return this.skip();
    const html = composition(
      '<img id="far" src="basic/pic.svg" style="position:absolute;left:0;top:0;width:40px;height:40px">' +
        '<div id="bg" style="position:absolute;left:100px;top:0;width:40px;height:40px;background:url(basic/pic.svg)"></div>',
    );
    const answer = await started(html, 'html-in-canvas');
    expect(answer.rasteriser).to.equal(null);
    expect(codesAndPlaces(answer.refusals)).to.deep.equal([
      ['capture_cross_origin_image', 'div#stage > img#far'],
      ['capture_cross_origin_image', 'div#stage > div#bg'],
    ]);
    // auto: HTML-in-Canvas refused, then foreignObject too (the last tried answers).
    const auto = await started(html, 'auto');
    expect([auto.rasteriser, auto.refusals.length]).to.deep.equal([null, 2]);
    const frame = await CaptureFrame.open(html);
    const sent = await frame.start('html-in-canvas', 320, 180, await resourcesOf('basic/pic.svg'));
    expect([sent.rasteriser, sent.refusals]).to.deep.equal(['html-in-canvas', []]);
    const captured = await frame.capture(0);
    if (captured.type !== 'captured') throw new Error(captured.message);
    const at = await pixelsOf(captured.pixels, 320);
    expect([at(20, 20), at(120, 20), at(200, 20)]).to.deep.equal([
      [0, 0, 255, 255],
      [0, 0, 255, 255],
      [255, 255, 255, 255],
    ]);
  });

  it('a capture before a capture-start that chose a rasteriser fails with "capture_not_started"', async () => {
    const frame = await CaptureFrame.open(composition('<iframe></iframe>'));
    const early = await frame.capture(0);
    expect([early.type, early.type === 'capture-failed' && early.code]).to.deep.equal([
      'capture-failed',
      'capture_not_started',
    ]);
    await frame.start('foreign-object');
    const refused = await frame.capture(0);
    expect(refused.type === 'capture-failed' && refused.code).to.equal('capture_not_started');
  });
});
