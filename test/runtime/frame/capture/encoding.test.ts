// The export frame encoding its own pictures (capture-start's `encode`, src/runtime/frame/capture/frame-encoder.ts),
// over the real protocol: each capture answered once handed to the encoder, the chunks sent as they come, the
// last after a flush; a configuration its encoder does not take falls back to sending pixels.
import { expect } from '@open-wc/testing';
import { chooseVideoCodec } from '../../../../src/export/encode/codec-choice.js';
import { captureEncoding } from '../../../../src/export/encode/video-output.js';
import { CaptureFailureCode } from '../../../../src/runtime/capture-codes.js';
import { itUnlessWebKit } from '../../../browsers.js';
import { CaptureFrame } from './capture-frame.js';

const COMPOSITION = `<!doctype html><html><head><style>
  body { margin: 0; } #stage { position: relative; width: 320px; height: 180px; }
  #box { position: absolute; top: 60px; width: 40px; height: 40px; background: #0a0; animation: move 1s linear both; }
  @keyframes move { to { left: 280px; } }
</style></head><body>
  <div id="stage" data-composition-id="main" data-width="320" data-height="180" data-duration="1"><div id="box"></div></div>
</body></html>`;

const FPS = 10;

async function encodingFor(format: 'mp4' | 'webm') {
  const alpha = format === 'webm';
  const request = { format, width: 320, height: 180, fps: FPS, quality: 'standard', alpha } as const;
  return captureEncoding(await chooseVideoCodec(request), request);
}

describe('capture-start with encode: the frame encodes its pictures', function () {
  this.timeout(60_000);

  for (const format of ['mp4', 'webm'] as const)
    itUnlessWebKit('videoEncoder', `${format}: an answer a frame, every chunk by the flush's answer`, async () => {
      const encode = await encodingFor(format);
      const frame = await CaptureFrame.open(COMPOSITION);
      const started = await frame.start('foreign-object', 320, 180, [], format === 'webm', encode);
      expect(started).to.deep.include({ rasteriser: 'foreign-object', encoding: true });
      for (let index = 0; index < 5; index++)
        expect((await frame.encode(index / FPS)).type, `frame ${index}`).to.equal('capture-encoded');
      expect((await frame.flush()).type).to.equal('capture-flushed');
      expect(frame.chunks.map((chunk) => chunk.index).sort()).to.deep.equal([0, 1, 2, 3, 4]);
      const [first] = frame.chunks;
      expect(first).to.deep.include({ index: 0, key: true });
      expect(first!.decoderConfig).to.deep.include({ codec: encode.codec, codedWidth: 320, codedHeight: 180 });
      expect(frame.chunks.every((chunk) => chunk.data.byteLength > 0)).to.equal(true);
      expect(frame.chunks.every((chunk) => (chunk.alpha !== undefined) === encode.alpha)).to.equal(true);
    });

  itUnlessWebKit('videoEncoder', "a codec the frame's encoder does not take: pixels, as without encode", async () => {
    const encode = { ...(await encodingFor('mp4')), codec: 'avc1.000000' };
    const frame = await CaptureFrame.open(COMPOSITION);
    const started = await frame.start('foreign-object', 320, 180, [], false, encode);
    expect(started.encoding).to.equal(false);
    const answer = await frame.capture(0.5);
    if (answer.type !== 'captured') throw new Error(answer.message);
    expect(answer.pixels.size).to.equal(320 * 180 * 4);
    expect(frame.chunks).to.deep.equal([]);
  });

  it('a flush of a frame that does not encode is refused (capture_not_started)', async () => {
    const frame = await CaptureFrame.open(COMPOSITION);
    await frame.start('foreign-object', 320, 180);
    const answer = await frame.flush();
    expect(answer).to.deep.include({ type: 'capture-failed', code: CaptureFailureCode.notStarted });
  });
});
