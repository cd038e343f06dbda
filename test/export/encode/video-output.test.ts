// openVideoOutput (src/export/encode/video-output.ts): synthetic frames encoded in the browser, the file decoded by
// FFmpeg on the Node side (test/fixtures/media-probe.mjs): codec, size, frame count, duration, alpha, sound and
// the pixels of the first and last frames.
import { expect } from '@open-wc/testing';
import { ExportErrorCode } from '../../../src/export/codes.js';
import { chooseAudioCodec } from '../../../src/export/encode/codec-choice.js';
import { openVideoOutput, type VideoOutputOptions } from '../../../src/export/encode/video-output.js';
import { EXPORT_MEDIA_TYPES } from '../../../src/export/formats.js';
import { isFxError } from '../../../src/runtime/errors.js';
import { itUnlessWebKit } from '../../browsers.js';
import {
  drawFrame,
  drop,
  pictureOf,
  encodeClip,
  probe,
  psnr,
  sine,
  upload,
  type Probe,
  type ProbedStream,
  expectNoUnhandledRejections,
} from './helpers.js';

const FPS = 30;
const SECONDS = 2;
const FRAMES = FPS * SECONDS;
const LAST = FRAMES - 1;
const WIDTH = 640;
const HEIGHT = 360;
/** What quality `high` keeps of a frame (the brief's bar; flat colour and text at 0.2 bit per pixel). */
const MIN_PSNR = 35;

const options = (more: Partial<VideoOutputOptions>): VideoOutputOptions => ({
  format: 'mp4',
  width: WIDTH,
  height: HEIGHT,
  fps: FPS,
  quality: 'high',
  alpha: false,
  ...more,
});

const video = (probed: Probe): ProbedStream => probed.streams.find((stream) => stream.type === 'video')!;
const audio = (probed: Probe): ProbedStream | undefined => probed.streams.find((stream) => stream.type === 'audio');

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('openVideoOutput', function () {
  this.timeout(120_000);
  expectNoUnhandledRejections();

  for (const format of ['mp4', 'webm'] as const)
    for (const withAudio of [false, true])
      for (const alpha of format === 'webm' ? [false, true] : [false])
        itUnlessWebKit(
          'videoEncoder',
          `${format}${alpha ? ' with alpha' : ''}${withAudio ? ' with sound' : ''}: ${FRAMES} frames at ${FPS} fps, the first and last frame's pixels kept`,
          async () => {
            const output = await openVideoOutput(
              options({ format, alpha, ...(withAudio ? { audio: sine(SECONDS) } : {}) }),
            );
            expect(output.videoCodec).to.equal(format === 'mp4' ? 'avc' : 'vp9');
            const clip = await encodeClip(output, FRAMES, { width: WIDTH, height: HEIGHT, alpha, keep: [0, LAST] });
            expect(clip.file?.type).to.equal(EXPORT_MEDIA_TYPES[format]);
            const id = await upload(clip.file!, format);
            try {
              const probed = await probe(id);
              const stream = video(probed);
              expect(probed.format.name).to.include(format === 'mp4' ? 'mp4' : 'webm');
              expect({
                codec: stream.codec,
                width: stream.width,
                height: stream.height,
                frames: stream.frames,
              }).to.deep.equal({
                codec: format === 'mp4' ? 'h264' : 'vp9',
                width: WIDTH,
                height: HEIGHT,
                frames: FRAMES,
              });
              expect(stream.duration).to.be.closeTo(SECONDS, 0.001);
              if (alpha) expect(stream.alphaMode).to.equal('1');
              else expect(stream.alphaMode).to.equal(undefined);
              const sound = audio(probed);
              if (withAudio) {
                expect(sound?.codec).to.equal('opus');
                expect(output.audioCodec).to.equal('opus');
                expect(sound!.channels).to.equal(2);
                expect(sound!.duration).to.be.closeTo(SECONDS, 0.05);
              } else expect(sound).to.equal(undefined);
              for (const frame of [0, LAST]) {
                const png = clip.pngs.get(frame)!;
                // With alpha, the colour of a transparent pixel is anything: the alpha plane is what must be kept.
                expect(await psnr(id, frame, png, alpha ? 'alpha' : 'rgb'), `frame ${frame}`).to.be.at.least(MIN_PSNR);
              }
            } finally {
              await drop(id);
            }
          },
        );

  for (const format of ['mp4', 'webm'] as const)
    itUnlessWebKit(
      'videoEncoder',
      `the browser plays the ${format} it wrote, sound included: duration, size, a seek`,
      async () => {
        const output = await openVideoOutput(options({ format, alpha: format === 'webm', audio: sine(SECONDS) }));
        const { file } = await encodeClip(output, FRAMES, { width: WIDTH, height: HEIGHT, alpha: format === 'webm' });
        const element = document.createElement('video');
        element.muted = true;
        const url = URL.createObjectURL(file!);
        try {
          const loaded = new Promise((resolve, reject) => {
            element.addEventListener('loadeddata', resolve, { once: true });
            element.addEventListener('error', () => reject(new Error(`cannot play: ${element.error?.message}`)), {
              once: true,
            });
          });
          element.src = url;
          await loaded;
          expect([element.videoWidth, element.videoHeight]).to.deep.equal([WIDTH, HEIGHT]);
          expect(element.duration).to.be.closeTo(SECONDS, 0.05);
          const seeked = new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
          element.currentTime = 1.5;
          await seeked;
          expect(element.error).to.equal(null);
        } finally {
          element.removeAttribute('src');
          element.load();
          URL.revokeObjectURL(url);
        }
      },
    );

  it('refuses alpha in an mp4 (export_option_invalid): only webm keeps it', async () => {
    const error = await rejection(openVideoOutput(options({ format: 'mp4', alpha: true })));
    expect(isFxError(error, ExportErrorCode.optionInvalid), String(error)).to.equal(true);
  });

  itUnlessWebKit(
    'videoEncoder',
    'an mp4 of an odd size, which H.264 cannot take, is VP9 (or AV1) in MP4, at that size',
    async () => {
      const [width, height] = [321, 181];
      const output = await openVideoOutput(options({ width, height }));
      expect(output.videoCodec).to.be.oneOf(['vp9', 'av1']);
      const clip = await encodeClip(output, 10, { width, height, alpha: false });
      const id = await upload(clip.file!, 'odd');
      try {
        const stream = video(await probe(id));
        expect({
          codec: stream.codec,
          width: stream.width,
          height: stream.height,
          frames: stream.frames,
        }).to.deep.equal({
          codec: output.videoCodec,
          width,
          height,
          frames: 10,
        });
      } finally {
        await drop(id);
      }
    },
  );

  itUnlessWebKit('videoEncoder', 'falls back from H.264 to VP9 in MP4 when the encoder refuses H.264', async () => {
    const original = VideoEncoder.isConfigSupported;
    VideoEncoder.isConfigSupported = (config) =>
      config.codec.startsWith('avc1')
        ? Promise.resolve({ supported: false, config })
        : original.call(VideoEncoder, config);
    try {
      const output = await openVideoOutput(options({}));
      expect(output.videoCodec).to.equal('vp9');
      expect(output.codec).to.match(/^vp09\.00\.\d\d\.08$/);
      await output.cancel();
    } finally {
      VideoEncoder.isConfigSupported = original;
    }
  });

  itUnlessWebKit(
    'videoEncoder',
    'falls back from VP9 to VP8 in WebM when the encoder refuses VP9, alpha kept: decoded by FFmpeg',
    async () => {
      const original = VideoEncoder.isConfigSupported;
      VideoEncoder.isConfigSupported = (config) =>
        config.codec.startsWith('vp09')
          ? Promise.resolve({ supported: false, config })
          : original.call(VideoEncoder, config);
      try {
        const output = await openVideoOutput(options({ format: 'webm', alpha: true }));
        expect([output.videoCodec, output.codec]).to.deep.equal(['vp8', 'vp8']);
        const clip = await encodeClip(output, FRAMES, { width: WIDTH, height: HEIGHT, alpha: true, keep: [LAST] });
        const id = await upload(clip.file!, 'vp8-alpha');
        try {
          const stream = video(await probe(id));
          expect({ codec: stream.codec, frames: stream.frames, alpha: stream.alphaMode }).to.deep.equal({
            codec: 'vp8',
            frames: FRAMES,
            alpha: '1',
          });
          expect(await psnr(id, LAST, clip.pngs.get(LAST)!, 'alpha')).to.be.at.least(MIN_PSNR);
        } finally {
          await drop(id);
        }
      } finally {
        VideoEncoder.isConfigSupported = original;
      }
    },
  );

  it('chooses AAC for the sound of an mp4 where the browser encodes it, else Opus; Opus (else Vorbis) for webm', async () => {
    // No browser here encodes AAC (Chromium on Linux, Firefox): the choice is checked with an encoder that says it
    // does; the Opus-in-MP4 files above are what these browsers write. mediabunny remembers each configuration's
    // answer for the page's life: each step asks for mono (no other test does) at a quality of its own.
    const original = AudioEncoder.isConfigSupported;
    const encodes = (...codecs: string[]) =>
      (AudioEncoder.isConfigSupported = (config) =>
        Promise.resolve({ supported: codecs.some((codec) => config.codec.startsWith(codec)), config }));
    try {
      encodes('mp4a', 'opus');
      expect((await chooseAudioCodec('mp4', 'draft', 1)).codec).to.equal('aac');
      expect((await chooseAudioCodec('webm', 'draft', 1)).codec).to.equal('opus');
      encodes('opus');
      expect((await chooseAudioCodec('mp4', 'standard', 1)).codec).to.equal('opus');
      encodes('vorbis');
      expect((await chooseAudioCodec('webm', 'high', 1)).codec).to.equal('vorbis');
      const error = await rejection(chooseAudioCodec('mp4', 'high', 1));
      expect(isFxError(error, ExportErrorCode.unsupported), String(error)).to.equal(true);
      expect(String(error)).to.include('aac, opus');
    } finally {
      AudioEncoder.isConfigSupported = original;
    }
  });

  itUnlessWebKit(
    'videoEncoder',
    'refuses with export_unsupported, naming the format, the size and what it tried, when no codec is taken',
    async () => {
      const original = VideoEncoder.isConfigSupported;
      VideoEncoder.isConfigSupported = (config) => Promise.resolve({ supported: false, config });
      try {
        for (const format of ['mp4', 'webm'] as const) {
          const error = await rejection(openVideoOutput(options({ format })));
          expect(isFxError(error, ExportErrorCode.unsupported), String(error)).to.equal(true);
          const text = (error as Error).message;
          expect(text).to.include(format).and.include(`${WIDTH}×${HEIGHT}`);
          for (const tried of format === 'mp4' ? ['avc1.', 'vp09.', 'av01.'] : ['vp09.', 'vp8'])
            expect(text).to.include(tried);
        }
      } finally {
        VideoEncoder.isConfigSupported = original;
      }
    },
  );

  it('refuses with export_unsupported when the browser has no VideoEncoder', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'VideoEncoder')!;
    delete (globalThis as { VideoEncoder?: unknown }).VideoEncoder;
    try {
      const error = await rejection(openVideoOutput(options({ format: 'webm' })));
      expect(isFxError(error, ExportErrorCode.unsupported), String(error)).to.equal(true);
      expect((error as Error).message).to.include('VideoEncoder');
    } finally {
      Object.defineProperty(globalThis, 'VideoEncoder', descriptor);
    }
  });

  itUnlessWebKit(
    'videoEncoder',
    'refuses a frame out of order or of another size (export_option_invalid)',
    async () => {
      const output = await openVideoOutput(options({ format: 'webm' }));
      try {
        const wrongSize = pictureOf(drawFrame(0, WIDTH / 2, HEIGHT, false));
        const error = await rejection(output.add(wrongSize, 0));
        expect(isFxError(error, ExportErrorCode.optionInvalid), String(error)).to.equal(true);
        const skipped = pictureOf(drawFrame(0, WIDTH, HEIGHT, false));
        expect(isFxError(await rejection(output.add(skipped, 1)), ExportErrorCode.optionInvalid)).to.equal(true);
      } finally {
        await output.cancel();
      }
    },
  );

  itUnlessWebKit(
    'videoEncoder',
    'cancelled mid-way: the pending add, later adds and finish reject with export_aborted, nothing unhandled',
    async () => {
      const output = await openVideoOutput(options({ format: 'mp4', audio: sine(SECONDS) }));
      const frame = (index: number) => output.add(pictureOf(drawFrame(0, WIDTH, HEIGHT, false)), index);
      for (let index = 0; index < 10; index++) await frame(index);
      const pending = output.add(pictureOf(drawFrame(0, WIDTH, HEIGHT, false)), 10);
      await output.cancel();
      const settled = await pending.then(
        () => undefined,
        (error: unknown) => error,
      );
      if (settled !== undefined) expect(isFxError(settled, ExportErrorCode.aborted), String(settled)).to.equal(true);
      expect(isFxError(await rejection(frame(11)), ExportErrorCode.aborted)).to.equal(true);
      expect(isFxError(await rejection(output.finish()), ExportErrorCode.aborted)).to.equal(true);
      await output.cancel();
    },
  );

  describe('streamed to a FileSystemWritableFileStream (origin private file system)', () => {
    let folder: FileSystemDirectoryHandle;
    before(async () => {
      if (typeof navigator.storage?.getDirectory === 'function') folder = await navigator.storage.getDirectory();
    });

    for (const format of ['mp4', 'webm'] as const)
      itUnlessWebKit(
        'opfs',
        `${format}: written to the stream, nothing returned, the same frames in the file`,
        async () => {
          const name = `fx-stream-test.${format}`;
          const handle = await folder.getFileHandle(name, { create: true });
          try {
            const output = await openVideoOutput(
              options({ format, audio: sine(SECONDS), target: await handle.createWritable() }),
            );
            const clip = await encodeClip(output, FRAMES, { width: WIDTH, height: HEIGHT, alpha: false, keep: [LAST] });
            expect(clip.file).to.equal(undefined);
            const id = await upload(await handle.getFile(), `stream-${format}`);
            try {
              const probed = await probe(id);
              expect(video(probed).frames).to.equal(FRAMES);
              expect(video(probed).duration).to.be.closeTo(SECONDS, 0.001);
              expect(audio(probed)?.duration).to.be.closeTo(SECONDS, 0.05);
              expect(await psnr(id, LAST, clip.pngs.get(LAST)!)).to.be.at.least(MIN_PSNR);
            } finally {
              await drop(id);
            }
          } finally {
            await folder.removeEntry(name);
          }
        },
      );

    itUnlessWebKit(
      'videoEncoder',
      'cancelled while finishing: finish rejects with export_aborted and the file keeps what it held, or it had ended',
      async () => {
        // At once (before the finish's work starts: it must abort), after a microtask, and once the muxer is
        // writing (a task later): whichever wins, the file is either as it was or whole — never half-written.
        for (const when of ['at once', 'after a microtask', 'after a task'] as const) {
          const name = `fx-stream-cancel-finish.mp4`;
          const handle = await folder.getFileHandle(name, { create: true });
          try {
            const before = await handle.createWritable();
            await before.write('kept');
            await before.close();
            const output = await openVideoOutput(
              options({ format: 'mp4', audio: sine(SECONDS), target: await handle.createWritable() }),
            );
            for (let index = 0; index < 10; index++)
              await output.add(pictureOf(drawFrame(0, WIDTH, HEIGHT, false)), index);
            const finishing = output.finish().then(
              () => 'finished',
              (error: unknown) => error,
            );
            if (when === 'after a microtask') await Promise.resolve();
            if (when === 'after a task') await new Promise((resolve) => setTimeout(resolve, 0));
            await output.cancel();
            const settled = await finishing;
            const file = await handle.getFile();
            if (settled === 'finished') {
              expect(when, 'a cancel at once always wins').not.to.equal('at once');
              const id = await upload(file, `cancel-finish-${when.replace(/ /g, '-')}`);
              try {
                expect(video(await probe(id)).frames, when).to.equal(10);
              } finally {
                await drop(id);
              }
            } else {
              expect(isFxError(settled, ExportErrorCode.aborted), `${when}: ${String(settled)}`).to.equal(true);
              expect(await file.text(), when).to.equal('kept');
            }
            expect(
              isFxError(await rejection(output.finish()), ExportErrorCode.aborted),
              `${when}: finish again`,
            ).to.equal(settled !== 'finished');
          } finally {
            await folder.removeEntry(name);
          }
        }
      },
    );

    itUnlessWebKit('videoEncoder', 'cancelled mid-way: the file keeps what it held before', async () => {
      const name = 'fx-stream-cancel.webm';
      const handle = await folder.getFileHandle(name, { create: true });
      try {
        const before = await handle.createWritable();
        await before.write('kept');
        await before.close();
        const output = await openVideoOutput(options({ format: 'webm', target: await handle.createWritable() }));
        for (let index = 0; index < 10; index++) await output.add(pictureOf(drawFrame(0, WIDTH, HEIGHT, false)), index);
        await output.cancel();
        expect(await (await handle.getFile()).text()).to.equal('kept');
      } finally {
        await folder.removeEntry(name);
      }
    });
  });

  itUnlessWebKit(
    'videoEncoder',
    'encode speed at 1920×1080, 60 frames (logged; mp4 and webm at standard)',
    async () => {
      for (const format of ['mp4', 'webm'] as const) {
        const output = await openVideoOutput(options({ format, width: 1920, height: 1080, quality: 'standard' }));
        const clip = await encodeClip(output, 60, { width: 1920, height: 1080, alpha: false });
        console.log(
          `${format} ${output.codec} 1080p: ${clip.framesPerSecond.toFixed(1)} frames/s, ${clip.file!.size} bytes`,
        );
        expect(clip.framesPerSecond).to.be.above(0);
      }
    },
  );
});
