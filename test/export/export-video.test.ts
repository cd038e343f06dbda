// exportVideo / captureFrame from a real <fx-composition>, end to end: the export frame captures itself, the file
// is decoded by FFmpeg (test/fixtures/media-probe.mjs). A box moves 10 px a frame over a transparent stage, so a
// frame out of place, a lost frame or a lost alpha plane shows; the preview plays on meanwhile.
import { expect } from '@open-wc/testing';
import { itUnlessWebKit } from '../browsers.js';
import { ExportErrorCode } from '../../src/export/index.js';
import type { FxError } from '../../src/runtime/errors.js';
import { compositionHtml, mount, whenReady } from '../elements/helpers.js';
import { drop, probe, psnr, upload } from './encode/helpers.js';

const FPS = 10;
const DURATION = 1;
/** 200×100, a 20×20 box at x = 10 px × frame, half-transparent background: alpha in webm shows. */
const MOVING = compositionHtml({
  width: 200,
  height: 100,
  duration: DURATION,
  head: `<style>html, body { background: transparent; } #root { background: rgb(0 80 160 / 0.5); }
    #box { position: absolute; top: 40px; width: 20px; height: 20px; background: #ff0; animation: move ${DURATION}s linear both; }
    @keyframes move { from { left: 0; } to { left: ${10 * FPS * DURATION}px; } }</style>`,
  body: '<div id="box"></div>',
});

/** The picture frame `index` should be: drawn here, as the composition paints it. */
async function expectedFrame(index: number, alpha: boolean): Promise<Blob> {
  const canvas = new OffscreenCanvas(200, 100);
  const context = canvas.getContext('2d')!;
  context.fillStyle = alpha ? 'rgb(0 80 160 / 0.5)' : 'rgb(0 40 80)';
  context.fillRect(0, 0, 200, 100);
  context.fillStyle = '#ff0';
  context.fillRect(10 * index, 40, 20, 20);
  return canvas.convertToBlob({ type: 'image/png' });
}

const rejection = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: FxError) => error,
  );

describe('exportVideo: a composition exported in the page, checked by FFmpeg', function () {
  this.timeout(60_000);
  afterEach(() => document.querySelectorAll('fx-composition').forEach((element) => element.remove()));

  itUnlessWebKit(
    'videoEncoder',
    'writes an mp4 of fps × duration frames, each the composition at i / fps',
    async () => {
      const el = await whenReady(mount({}, { srcdoc: MOVING }));
      const progress: (number | undefined)[] = [];
      const result = await el.exportVideo({
        fps: FPS,
        quality: 'high',
        onProgress: (p) => progress.push(p.framesDone),
      });
      expect(result).to.deep.include({ format: 'mp4', width: 200, height: 100, fps: FPS, frames: 10, duration: 1 });
      expect(result.encodedIn, 'encoded in the export frame, the page only muxes').to.equal('frame');
      expect(result.video!.type).to.equal('video/mp4');
      expect(progress.at(-1)).to.equal(10);
      const id = await upload(result.video!, 'mp4');
      try {
        const probed = await probe(id);
        const video = probed.streams.find((stream) => stream.type === 'video')!;
        expect(video).to.deep.include({ width: 200, height: 100, frames: 10 });
        expect(
          probed.streams.some((stream) => stream.type === 'audio'),
          'a silent composition has no sound',
        ).to.equal(false);
        // The stage's half-transparent blue over black, as an opaque format shows it; the box where frame i puts it.
        for (const index of [0, 4, 9]) expect(await psnr(id, index, await expectedFrame(index, false))).to.be.above(30);
        expect(await psnr(id, 4, await expectedFrame(6, false)), 'another frame scores lower').to.be.below(25);
      } finally {
        await drop(id);
      }
      // The export frame is gone; the preview's is there.
      expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    },
  );

  itUnlessWebKit('videoEncoder', 'writes a webm that keeps the alpha channel', async function () {
    const el = await whenReady(mount({}, { srcdoc: MOVING }));
    const result = await el.exportVideo({ format: 'webm', fps: FPS, quality: 'high' });
    expect(result.video!.type).to.equal('video/webm');
    expect(result.encodedIn, 'both planes encoded in the export frame').to.equal('frame');
    const id = await upload(result.video!, 'webm');
    try {
      const video = (await probe(id)).streams.find((stream) => stream.type === 'video')!;
      expect(video.frames).to.equal(10);
      expect(video.alphaMode, 'VP9 with its alpha plane').to.equal('1');
      expect(await psnr(id, 5, await expectedFrame(5, true), 'alpha')).to.be.above(30);
    } finally {
      await drop(id);
    }
  });

  itUnlessWebKit(
    'videoEncoder',
    'resolution and aspectRatio size the file as the service does: the composition letterboxed into the preset',
    async () => {
      const el = await whenReady(mount({}, { srcdoc: MOVING }));
      // 200×100 into 1:1 at 1080p: scaled 5.4× to 1080×540, centred, with 270 px above and below.
      const result = await el.exportVideo({ fps: FPS, aspectRatio: '1:1', resolution: '1080p' });
      expect(result).to.deep.include({ width: 1080, height: 1080, frames: 10 });
      const id = await upload(result.video!, 'mp4');
      try {
        const video = (await probe(id)).streams.find((stream) => stream.type === 'video')!;
        expect(video).to.deep.include({ width: 1080, height: 1080, frames: 10 });
      } finally {
        await drop(id);
      }
      const still = await createImageBitmap(await el.captureFrame(0, { aspectRatio: '16:9' }));
      expect([still.width, still.height], 'aspectRatio alone is the 1080p preset').to.deep.equal([1920, 1080]);
      const context = new OffscreenCanvas(1920, 1080).getContext('2d')!;
      context.drawImage(still, 0, 0);
      // 200×100 fills 1920×960 of 16:9, 60 px bars above and below: transparent in a png.
      expect(context.getImageData(960, 20, 1, 1).data[3], 'a bar').to.equal(0);
      expect(context.getImageData(960, 100, 1, 1).data[3], 'the stage').to.be.within(126, 130);
    },
  );

  it('exports the values asked for, not those on stage, and the stage keeps its own', async () => {
    const titled = compositionHtml({
      width: 200,
      height: 100,
      duration: 0.5,
      variables: [{ id: 'accent', type: 'color', label: 'Accent', default: '#000000' }],
      head: '<style>#root { background: var(--accent); }</style>',
    });
    const el = await whenReady(mount({}, { srcdoc: titled }));
    el.variables = { accent: '#ff0000' };
    const still = await el.captureFrame(0.2, { variables: { accent: '#00ff00' } });
    const bitmap = await createImageBitmap(still);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    expect([...context.getImageData(100, 50, 1, 1).data]).to.deep.equal([0, 255, 0, 255]);
    expect(still.type).to.equal('image/png');
    expect(el.variables).to.deep.equal({ accent: '#ff0000' });
  });

  it('a png still keeps what the composition leaves transparent; a jpeg shows the backdrop', async () => {
    const el = await whenReady(mount({}, { srcdoc: MOVING }));
    const pixel = async (still: Blob) => {
      const context = new OffscreenCanvas(200, 100).getContext('2d')!;
      context.drawImage(await createImageBitmap(still), 0, 0);
      return [...context.getImageData(150, 10, 1, 1).data];
    };
    const [r, g, b, a] = await pixel(await el.captureFrame(0.5));
    expect(a).to.be.within(126, 130);
    // Premultiplied on the way (alpha 0.5 halves the precision): within a few steps.
    for (const [channel, value] of [r, g, b].entries())
      expect(Math.abs(value! - [0, 80, 160][channel]!)).to.be.at.most(4);
    const jpeg = await pixel(await el.captureFrame(0.5, { type: 'image/jpeg', quality: 1 }));
    expect(jpeg[3]).to.equal(255);
    expect(jpeg[2], 'half-transparent blue over the black backdrop').to.be.within(76, 84);
  });

  it('a still at a time outside the composition is refused with the duration', async () => {
    const el = await whenReady(mount({}, { srcdoc: MOVING }));
    const error = await rejection(el.captureFrame(5));
    expect(error?.code).to.equal(ExportErrorCode.optionInvalid);
    expect(error?.message).to.contain('"time" must be a number of seconds from 0 to');
  });

  itUnlessWebKit(
    'videoEncoder',
    'an abort mid-export rejects with export_aborted and leaves only the preview frame',
    async () => {
      const el = await whenReady(mount({}, { srcdoc: MOVING }));
      const controller = new AbortController();
      const exporting = el.exportVideo({
        fps: FPS,
        signal: controller.signal,
        onProgress: (p) => p.framesDone === 3 && controller.abort(),
      });
      expect((await rejection(exporting))?.code).to.equal(ExportErrorCode.aborted);
      expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    },
  );

  it('refuses a composition the capture check refuses, naming what and where', async () => {
    const nested = compositionHtml({ body: '<iframe id="inner" srcdoc="hi"></iframe>' });
    const el = await whenReady(mount({}, { srcdoc: nested }));
    const error = await rejection(el.exportVideo({ rasteriser: 'foreign-object' }));
    expect(error?.code).to.equal(ExportErrorCode.captureRefused);
    expect(error?.issues.map((issue) => issue.code)).to.include('capture_nested_frame');
    expect(error?.message).to.contain('iframe');
  });
});
