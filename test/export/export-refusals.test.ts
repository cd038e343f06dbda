// exportVideo / captureFrame refuse what they cannot do before any frame loads (options, a non-element, a browser
// without WebCodecs, an embed with nothing loaded), with a code each; an abort leaves no export frame behind.
import { expect } from '@open-wc/testing';
import { captureFrame, exportVideo, ExportErrorCode } from '../../src/export/index.js';
import type { FxError } from '../../src/runtime/errors.js';
import { compositionHtml, mount, whenReady } from '../elements/helpers.js';

const rejection = async (promise: Promise<unknown>): Promise<FxError> => {
  try {
    await promise;
  } catch (error) {
    return error as FxError;
  }
  throw new Error('expected a rejection');
};

describe('exportVideo and captureFrame: refusals before anything loads', () => {
  afterEach(() => document.querySelectorAll('fx-composition').forEach((element) => element.remove()));

  it('refuses what is not an <fx-composition>', async () => {
    for (const embed of [undefined, null, {}, document.body, 'fx-composition']) {
      const error = await rejection(exportVideo(embed));
      expect(error.code).to.equal(ExportErrorCode.optionInvalid);
      expect(error.message).to.contain('<fx-composition>');
    }
    expect((await rejection(captureFrame({}, 0))).code).to.equal(ExportErrorCode.optionInvalid);
  });

  it('names the option and what it takes', async () => {
    const el = mount({}, { srcdoc: compositionHtml() });
    const cases: [Record<string, unknown>, string][] = [
      [{ format: 'mov' }, '"format" must be one of "mp4", "webm", got "mov"'],
      [{ format: 'gif' }, '"format" must be one of'],
      [{ fps: 0 }, '"fps" must be an integer from 1 to 240, got 0'],
      [{ fps: 29.97 }, '"fps" must be an integer'],
      [{ fps: '30' }, '"fps" must be an integer'],
      [{ quality: 'best' }, '"quality" must be one of "draft", "standard", "high"'],
      [{ rasteriser: 'webgl' }, '"rasteriser" must be one of "auto", "html-in-canvas", "foreign-object"'],
      [{ resolution: '720p' }, '"resolution" must be one of "1080p", "4k", got "720p"'],
      [{ resolution: null }, '"resolution" must be one of'],
      [{ aspectRatio: '4:3' }, '"aspectRatio" must be one of "16:9", "9:16", "1:1", got "4:3"'],
    ];
    for (const [options, message] of cases) {
      const error = await rejection(el.exportVideo(options as never));
      expect(error.code, JSON.stringify(options)).to.equal(ExportErrorCode.optionInvalid);
      expect(error.message).to.contain(message);
    }
    for (const [options, message] of [
      [{ type: 'image/gif' }, '"type" must be one of "image/png", "image/jpeg", "image/webp"'],
      [{ quality: 2 }, '"quality" must be a number from 0 to 1, got 2'],
      [{ aspectRatio: 'square' }, '"aspectRatio" must be one of'],
    ] as const) {
      const error = await rejection(el.captureFrame(0, options as never));
      expect(error.code).to.equal(ExportErrorCode.optionInvalid);
      expect(error.message).to.contain(message);
    }
  });

  it('says the browser lacks WebCodecs when VideoEncoder is missing', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml() }));
    const encoder = Object.getOwnPropertyDescriptor(globalThis, 'VideoEncoder');
    delete (globalThis as { VideoEncoder?: unknown }).VideoEncoder;
    try {
      const error = await rejection(el.exportVideo());
      expect(error.code).to.equal(ExportErrorCode.unsupported);
      expect(error.message).to.contain('VideoEncoder');
    } finally {
      if (encoder) Object.defineProperty(globalThis, 'VideoEncoder', encoder);
    }
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
  });

  it('refuses an embed with nothing loaded', async () => {
    const el = mount({});
    const error = await rejection(el.exportVideo());
    expect(error.code).to.equal(ExportErrorCode.notReady);
    expect((await rejection(el.captureFrame(0))).code).to.equal(ExportErrorCode.notReady);
  });

  it('an abort before the frame is ready rejects with export_aborted and removes the export frame', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml() }));
    const controller = new AbortController();
    const exporting = el.exportVideo({ signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect((await rejection(exporting)).code).to.equal(ExportErrorCode.aborted);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    const already = await rejection(el.captureFrame(0, { signal: AbortSignal.abort() }));
    expect(already.code).to.equal(ExportErrorCode.aborted);
  });
});
