// Frames encoded where they are captured (src/runtime/frame/capture/frame-encoder.ts) and muxed by the page
// (`openVideoOutput({ encoded: true })`): the file decoded by FFmpeg, and what a hostile frame could send instead
// of its encoder's chunks refused with export_encode_failed, nothing left unhandled.
import { expect } from '@open-wc/testing';
import { ExportErrorCode } from '../../../src/export/codes.js';
import { chooseVideoCodec, type VideoCodecChoice } from '../../../src/export/encode/codec-choice.js';
import {
  captureEncoding,
  openVideoOutput,
  type VideoOutput,
  type VideoOutputOptions,
} from '../../../src/export/encode/video-output.js';
import type { ExportFormat } from '../../../src/export/formats.js';
import { isFxError } from '../../../src/runtime/errors.js';
import { FrameEncoder } from '../../../src/runtime/frame/capture/frame-encoder.js';
import { Message, type EncodedChunkMessage } from '../../../src/runtime/protocol/messages.js';
import { itUnlessWebKit } from '../../browsers.js';
import { drawFrame, drop, expectNoUnhandledRejections, pictureOf, probe, psnr, upload } from './helpers.js';

const FPS = 30;
const FRAMES = 45;
const WIDTH = 320;
const HEIGHT = 180;

interface Encoded {
  readonly choice: VideoCodecChoice;
  readonly chunks: EncodedChunkMessage[];
  readonly pngs: Map<number, Blob>;
}

/** `frames` drawn frames through the frame's encoder, as the export frame encodes them, and the chunks it sends. */
async function encodeInFrame(format: ExportFormat, alpha: boolean, frames = FRAMES): Promise<Encoded> {
  const request = { format, width: WIDTH, height: HEIGHT, fps: FPS, quality: 'high', alpha } as const;
  const choice = await chooseVideoCodec(request);
  const chunks: EncodedChunkMessage[] = [];
  const encoder = await FrameEncoder.open(captureEncoding(choice, request), request, (message) => {
    if (message.type === Message.encodedChunk) chunks.push(message);
  });
  if (!encoder) throw new Error(`the frame's encoder took no ${choice.codec}`);
  const pngs = new Map<number, Blob>();
  try {
    for (let index = 0; index < frames; index++) {
      const canvas = drawFrame(index, WIDTH, HEIGHT, alpha);
      if (index === 0 || index === frames - 1) pngs.set(index, await canvas.convertToBlob({ type: 'image/png' }));
      await encoder.encode(pictureOf(canvas), index);
    }
    await encoder.flush();
  } finally {
    encoder.close();
  }
  return { choice, chunks, pngs };
}

/** An output of the pictures' size and rate; `more` says the rest. */
const outputOf = (more: Partial<VideoOutputOptions> = {}) =>
  openVideoOutput({ format: 'mp4', width: WIDTH, height: HEIGHT, fps: FPS, quality: 'high', alpha: false, ...more });

const outputFor = ({ choice }: Encoded, format: ExportFormat, alpha: boolean, frames = FRAMES) =>
  outputOf({ format, alpha, video: choice, encoded: true, frames });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isFxError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** Adds `chunks` and finishes; the first rejection's code, with its message. */
async function muxed(output: VideoOutput, chunks: readonly EncodedChunkMessage[]): Promise<string> {
  try {
    for (const chunk of chunks) await output.addChunk(chunk);
    await output.finish();
    return 'finished';
  } catch (error) {
    if (isFxError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

describe('frames encoded in the frame, muxed in the page', function () {
  this.timeout(120_000);
  expectNoUnhandledRejections();

  for (const [format, alpha] of [
    ['mp4', false],
    ['webm', true],
  ] as const)
    itUnlessWebKit(
      'videoEncoder',
      `${format}${alpha ? ' with alpha' : ''}: every frame once, the first with its decoder configuration`,
      async () => {
        const encoded = await encodeInFrame(format, alpha);
        expect(encoded.chunks.map((chunk) => chunk.index).sort((a, b) => a - b)).to.deep.equal(
          Array.from({ length: FRAMES }, (_, index) => index),
        );
        expect(encoded.chunks[0]!.key).to.equal(true);
        expect(encoded.chunks[0]!.decoderConfig?.codec).to.equal(encoded.choice.codec);
        // A key frame every 2 s, and at frame 0.
        expect(encoded.chunks.filter((chunk) => chunk.key).map((chunk) => chunk.index)).to.include.members([0]);
        expect(encoded.chunks.every((chunk) => (chunk.alpha !== undefined) === alpha)).to.equal(true);
        const output = await outputFor(encoded, format, alpha);
        expect(await muxed(output, encoded.chunks)).to.equal('finished');
      },
    );

  for (const [format, alpha] of [
    ['mp4', false],
    ['webm', true],
  ] as const)
    itUnlessWebKit('videoEncoder', `${format}: FFmpeg decodes every frame, pixels kept`, async () => {
      const encoded = await encodeInFrame(format, alpha);
      const output = await outputFor(encoded, format, alpha);
      for (const chunk of encoded.chunks) await output.addChunk(chunk);
      const file = await output.finish();
      const id = await upload(file!, format);
      try {
        const stream = (await probe(id)).streams.find((found) => found.type === 'video')!;
        expect({
          codec: stream.codec,
          frames: stream.frames,
          width: stream.width,
          height: stream.height,
        }).to.deep.equal({ codec: format === 'mp4' ? 'h264' : 'vp9', frames: FRAMES, width: WIDTH, height: HEIGHT });
        expect(stream.alphaMode).to.equal(alpha ? '1' : undefined);
        for (const [index, png] of encoded.pngs)
          expect(await psnr(id, index, png, alpha ? 'alpha' : 'rgb'), `frame ${index}`).to.be.at.least(35);
      } finally {
        await drop(id);
      }
    });

  describe('what a hostile frame sends instead is refused (export_encode_failed), the file dropped', () => {
    let mp4: Encoded;
    before(async () => {
      mp4 = await encodeInFrame('mp4', false, 4);
    });
    const first = () => mp4.chunks[0]!;
    const cases: [string, () => EncodedChunkMessage[], RegExp][] = [
      ['a first chunk that is not a key chunk', () => [{ ...first(), key: false }], /not a key chunk/],
      ['a first chunk without a decoder configuration', () => [{ ...first(), decoderConfig: undefined }], /not a key/],
      [
        'another codec',
        () => [{ ...first(), decoderConfig: { ...first().decoderConfig!, codec: 'vp09.00.10.08' } }],
        /its codec is vp09/,
      ],
      [
        'another size',
        () => [{ ...first(), decoderConfig: { ...first().decoderConfig!, codedWidth: 64 } }],
        /64×180, not 320×180/,
      ],
      ['a frame twice', () => [first(), first()], /frame 0 came twice/],
      ['a frame past the grid', () => [first(), { ...mp4.chunks[1]!, index: 4 }], /frame 4 is not one of the 4 frames/],
      ['alpha in a file without', () => [{ ...first(), alpha: new ArrayBuffer(8) }], /has alpha/],
      ['a frame missing', () => mp4.chunks.filter((chunk) => chunk.index !== 2), /3 of the 4 frames came/],
      ['no chunk at all', () => [], /0 of the 4 frames came/],
    ];
    for (const [what, chunks, message] of cases)
      itUnlessWebKit('videoEncoder', what, async () => {
        const output = await outputFor(mp4, 'mp4', false, 4);
        const answer = await muxed(output, chunks());
        expect(answer).to.match(new RegExp(`^${ExportErrorCode.encodeFailed}: `));
        expect(answer).to.match(message);
        // Failed once, it stays failed: nothing more is written.
        expect(await codeOf(output.addChunk(first()))).to.equal(ExportErrorCode.encodeFailed);
      });

    itUnlessWebKit('videoEncoder', 'a webm with alpha given a chunk without its alpha', async () => {
      const webm = await encodeInFrame('webm', true, 2);
      const output = await outputFor(webm, 'webm', true, 2);
      const { alpha: _dropped, ...bare } = webm.chunks[0]!;
      expect(await muxed(output, [bare])).to.match(/frame 0 lacks alpha/);
    });

    itUnlessWebKit('videoEncoder', 'pictures and chunks do not mix: each output takes its own', async () => {
      const encodedOutput = await outputFor(mp4, 'mp4', false, 4);
      const picture = pictureOf(drawFrame(0, WIDTH, HEIGHT, false));
      expect(await codeOf(encodedOutput.add(picture, 0))).to.equal(ExportErrorCode.optionInvalid);
      await encodedOutput.cancel();
      const pictureOutput = await outputOf();
      expect(await codeOf(pictureOutput.addChunk(first()))).to.equal(ExportErrorCode.optionInvalid);
      await pictureOutput.cancel();
    });
  });

  itUnlessWebKit('videoEncoder', "the frame's encoder is not opened for a configuration it does not take", async () => {
    const encoding = { codec: 'avc1.000000', bitrate: 1e6, fps: FPS, keyFrameEvery: 60, alpha: false, avc: true };
    expect(await FrameEncoder.open(encoding, { width: WIDTH, height: HEIGHT }, () => {})).to.equal(undefined);
  });
});
