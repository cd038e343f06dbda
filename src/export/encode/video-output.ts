/**
 * In-browser export's encoder and muxer: frames (RGBA ImageData) and an optional mixed AudioBuffer in, an mp4 or a
 * webm out, through WebCodecs and mediabunny.
 *
 * Why mediabunny: it is the maintained successor of mp4-muxer and webm-muxer, by the same author (those two are
 * deprecated in its favour); one API writes both containers; it drives WebCodecs' encoders itself, with their
 * configuration (codec-specific options, the alpha plane as a second encoder for VP9/VP8 in WebM) and backpressure
 * (a sample's `add` resolves once the encoder's queue and the writer can take more), and it writes to memory or
 * to a stream with positioned writes. Pure TypeScript, no WASM, tree-shaken to what is used.
 */
import {
  AudioSampleSource,
  EncodedPacket,
  EncodedVideoPacketSource,
  Mp4OutputFormat,
  Output,
  Quality,
  VideoSample,
  VideoSampleSource,
  WebMOutputFormat,
} from 'mediabunny';
import { ENCODED_CHUNK_LIMITS, type CaptureEncoding } from '../../runtime/capture-encoding.js';
import { FxError } from '../../runtime/errors.js';
import type { EncodedChunkMessage } from '../../runtime/protocol/messages.js';
import { RENDER_QUALITIES } from '../../wire/render-values.js';
import { ExportErrorCode } from '../codes.js';
import { EXPORT_FORMATS } from '../formats.js';
import { AudioFeed } from './audio-feed.js';
import {
  chooseAudioCodec,
  chooseVideoCodec,
  type AudioCodecChoice,
  type VideoCodecChoice,
  type VideoCodecRequest,
} from './codec-choice.js';
import { encoderColorFix } from './color-probe.js';
import type { ExportVideoCodec } from './codec-strings.js';
import { openFileTarget } from './file-target.js';

/**
 * What to write: the codec request (`format`; the frame size every frame added must have; `fps`, frame `i` shown
 * from `i / fps` for `1 / fps`; `quality`; `alpha`, webm only: VP9 or VP8 with an alpha plane, an mp4 with alpha
 * is refused), the sound and where the file goes.
 */
export interface VideoOutputOptions extends VideoCodecRequest {
  /** The sound, already mixed; encoded alongside when given, cut at the video's end. */
  audio?: AudioBuffer;
  /** Stream the file there (chunked; closed when finished, aborted when cancelled); else it is built in memory. */
  target?: FileSystemWritableFileStream;
  /** The codec, as chosen for this request before (`chooseVideoCodec`); chosen here when absent. */
  video?: VideoCodecChoice;
  /**
   * The frames come encoded (`addChunk`), by the export frame with `captureEncoding` of the same choice; else as
   * pictures (`add`), encoded here.
   */
  encoded?: boolean;
  /** With `encoded`: the frames of the grid, the only indices a chunk may have. */
  frames?: number;
}

export interface VideoOutput {
  /** The WebCodecs codec string of the video (`avc1.64001f`, `vp09.00.30.08`, …). */
  readonly codec: string;
  readonly videoCodec: ExportVideoCodec;
  /** The sound's codec; undefined without `audio`. */
  readonly audioCodec: AudioCodecChoice['codec'] | undefined;
  /**
   * Encodes frame `index` (the next one: 0, 1, 2, …), RGBA pixels not premultiplied (as `getImageData` gives them).
   * Resolves when the encoder can take more (backpressure).
   */
  add(picture: ImageData, index: number): Promise<void>;
  /**
   * Muxes a chunk the export frame encoded (`encoded`), as hostile input: the first is a key chunk with the file's
   * codec and size, each frame of the grid comes once. Resolves when the muxer can take more.
   */
  addChunk(chunk: EncodedChunkMessage): Promise<void>;
  /** Ends the file: its Blob (typed `EXPORT_MEDIA_TYPES[format]`), or undefined when streamed to `target`. */
  finish(): Promise<Blob | undefined>;
  /** Stops and drops everything: nothing is written to `target`; later calls reject with `export_aborted`. */
  cancel(): Promise<void>;
}

/** Frames between key frames, in seconds: seeking in a player stays quick, the file barely grows. */
const KEY_FRAME_INTERVAL = 2;

/** How the export frame encodes for an output of `choice` (the same configuration `add` would use here). */
export function captureEncoding(
  choice: VideoCodecChoice,
  request: Pick<VideoCodecRequest, 'fps' | 'alpha'>,
): CaptureEncoding {
  return {
    codec: choice.codec,
    bitrate: choice.bitrate,
    fps: request.fps,
    keyFrameEvery: Math.max(1, Math.round(KEY_FRAME_INTERVAL * request.fps)),
    alpha: request.alpha,
    avc: choice.videoCodec === 'avc',
  };
}

export { chooseVideoCodec };

/**
 * Opens an encoder and muxer for the format, choosing the first codec the browser encodes at this size
 * (codec-choice.ts). Throws `export_option_invalid` for options it does not take and `export_unsupported` when
 * the browser encodes none of the format's codecs (or its sound's).
 */
export async function openVideoOutput(options: VideoOutputOptions): Promise<VideoOutput> {
  checkOptions(options);
  const { format, width, height, fps, quality, alpha, audio } = options;
  const video = options.video ?? (await chooseVideoCodec({ format, width, height, fps, quality, alpha }));
  const encoded = options.encoded === true;
  // What the encoder's RGB → YUV conversion really is, where it says otherwise (color-probe.ts: Firefox).
  const colorFix = await encoderColorFix({
    codec: video.codec,
    width,
    height,
    ...(video.videoCodec === 'avc' ? { avc: { format: 'avc' } } : {}),
  });
  const sound = audio === undefined ? undefined : await chooseAudioCodec(format, quality, audio.numberOfChannels);

  const file = openFileTarget(format, options.target);
  const output = new Output({
    format:
      format === 'mp4'
        ? // In memory: the index first (plays while it downloads). Streamed: the index last, nothing held back.
          new Mp4OutputFormat({ fastStart: file.streamed ? false : 'in-memory' })
        : new WebMOutputFormat(),
    target: file.target,
  });
  const colorSpaceOf = (decoderConfig: VideoDecoderConfig | undefined) => {
    if (colorFix !== undefined && decoderConfig !== undefined) decoderConfig.colorSpace = colorFix;
  };
  const packetSource = encoded ? new EncodedVideoPacketSource(video.videoCodec) : undefined;
  const sampleSource = encoded
    ? undefined
    : new VideoSampleSource({
        codec: video.videoCodec,
        fullCodecString: video.codec,
        quality: new Quality({ bitrate: video.bitrate, bitrateMode: 'variable' }),
        alpha: alpha ? 'keep' : 'discard',
        // No frame may be dropped: every frame of the grid is in the file.
        latencyMode: 'quality',
        keyFrameInterval: KEY_FRAME_INTERVAL,
        // Called before the muxer reads the packet's metadata: the file is tagged with the conversion made.
        onEncodedPacket: (_packet, meta) => colorSpaceOf(meta?.decoderConfig),
      });
  // The frame rate snaps every timestamp to the grid (an MP4 timescale that holds i / fps exactly).
  output.addVideoTrack((packetSource ?? sampleSource)!, { frameRate: fps });
  let feed: AudioFeed | undefined;
  if (audio !== undefined && sound !== undefined) {
    const audioSource = new AudioSampleSource({
      codec: sound.codec,
      quality: new Quality({ bitrate: sound.bitrate }),
      transform: { sampleRate: sound.sampleRate, numberOfChannels: sound.numberOfChannels },
    });
    output.addAudioTrack(audioSource);
    feed = new AudioFeed(audioSource, audio);
  }

  let state: 'open' | 'finished' | 'cancelled' | 'failed' = 'open';
  let failure: FxError | undefined;
  let next = 0;
  /** Grid frames muxed from the frame's chunks, each once. */
  const muxed = new Set<number>();
  /** Calls run one after another, in the order made. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => {});
    return run;
  };

  const aborted = () => new FxError(ExportErrorCode.aborted, `The ${format} export was cancelled; nothing is written.`);
  const notOpen = (): FxError =>
    state === 'cancelled'
      ? aborted()
      : state === 'failed'
        ? failure!
        : new FxError(ExportErrorCode.optionInvalid, `The ${format} is finished; no frame can be added to it.`);
  /** Ends in failure: the encoders are released and a stream target is left as it was. */
  const fail = async (error: unknown): Promise<FxError> => {
    if (state === 'cancelled') return aborted();
    if (state === 'failed') return failure!;
    state = 'failed';
    failure =
      error instanceof FxError
        ? error
        : new FxError(
            ExportErrorCode.encodeFailed,
            `Encoding the ${format} (${video.codec}${sound ? ` with ${sound.codec}` : ''}, ${width}×${height}) failed: ${message(error)}`,
            { cause: error },
          );
    // The stream first: mediabunny closes its writable as it cancels, which would commit the partial file.
    await file.abort(failure);
    await output.cancel().catch(() => {});
    return failure;
  };

  try {
    await output.start();
  } catch (error) {
    throw await fail(error);
  }

  return {
    codec: video.codec,
    videoCodec: video.videoCodec,
    audioCodec: sound?.codec,

    add(picture, index) {
      return serial(async () => {
        if (state !== 'open') throw notOpen();
        if (!sampleSource)
          throw new FxError(ExportErrorCode.optionInvalid, `The ${format}'s frames come encoded: add chunks.`);
        if (index !== next)
          throw new FxError(
            ExportErrorCode.optionInvalid,
            `Frames are added in order: frame ${next} is next, not ${index}.`,
          );
        if (picture.width !== width || picture.height !== height)
          throw new FxError(
            ExportErrorCode.optionInvalid,
            `Frame ${index} is ${picture.width}×${picture.height}; the ${format} is ${width}×${height}.`,
          );
        let sample: VideoSample | undefined;
        try {
          // Microseconds for WebCodecs; mediabunny's seconds, snapped to the track's frame rate, for the muxer.
          const frame = new VideoFrame(picture.data, {
            format: 'RGBA',
            codedWidth: width,
            codedHeight: height,
            timestamp: Math.round((index * 1e6) / fps),
            duration: Math.round(1e6 / fps),
          });
          sample = new VideoSample(frame, { timestamp: index / fps, duration: 1 / fps });
          next = index + 1;
          await sampleSource.add(sample);
          await feed?.feedTo(next / fps);
        } catch (error) {
          throw await fail(error);
        } finally {
          sample?.close();
        }
      });
    },

    addChunk(chunk) {
      return serial(async () => {
        if (state !== 'open') throw notOpen();
        if (!packetSource)
          throw new FxError(ExportErrorCode.optionInvalid, `The ${format}'s frames are added as pictures.`);
        try {
          const { packet, meta } = checkedChunk(chunk, muxed.size === 0, { ...video, width, height, fps, alpha });
          if (muxed.has(chunk.index)) throw chunkError(`frame ${chunk.index} came twice`);
          if (!(chunk.index < (options.frames ?? 0)))
            throw chunkError(`frame ${chunk.index} is not one of the ${options.frames ?? 0} frames`);
          muxed.add(chunk.index);
          colorSpaceOf(meta?.decoderConfig);
          await packetSource.add(packet, meta);
          next = muxed.size;
          await feed?.feedTo(next / fps);
        } catch (error) {
          throw await fail(error);
        }
      });
    },

    finish() {
      return serial(async () => {
        if (state !== 'open') throw notOpen();
        if (packetSource && muxed.size !== options.frames)
          throw await fail(chunkError(`${muxed.size} of the ${options.frames ?? 0} frames came`));
        if (next === 0) throw new FxError(ExportErrorCode.optionInvalid, `The ${format} has no frames to finish.`);
        try {
          await feed?.feedTo(next / fps, true);
          await output.finalize();
        } catch (error) {
          throw await fail(error);
        }
        if (state !== 'open') throw notOpen();
        state = 'finished';
        return file.blob();
      });
    },

    async cancel() {
      if (state !== 'open') return;
      state = 'cancelled';
      // Not queued: it stops an add or a finish under way, which then rejects with export_aborted.
      await file.abort(aborted());
      await output.cancel().catch(() => {});
    },
  };
}

function checkOptions(options: VideoOutputOptions): void {
  const invalid = (text: string) => new FxError(ExportErrorCode.optionInvalid, text);
  const { format, width, height, fps, quality, alpha } = options;
  if (!EXPORT_FORMATS.includes(format))
    throw invalid(`format is ${String(format)}; it is one of ${EXPORT_FORMATS.join(', ')}.`);
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const)
    if (!Number.isInteger(value) || value < 1)
      throw invalid(`${name} is ${value}; it is a whole number of pixels, 1 or more.`);
  if (!Number.isFinite(fps) || fps <= 0) throw invalid(`fps is ${fps}; it is a number of frames per second above 0.`);
  if (!RENDER_QUALITIES.includes(quality))
    throw invalid(`quality is ${String(quality)}; it is one of ${RENDER_QUALITIES.join(', ')}.`);
  if (alpha && format !== 'webm')
    throw invalid(`An ${format} cannot keep transparency; export a webm (VP9 with alpha) or leave alpha off.`);
}

const chunkError = (text: string) =>
  new FxError(ExportErrorCode.encodeFailed, `The export frame's encoder sent a chunk the file cannot take: ${text}.`);

/** A chunk from the frame (hostile, shape-checked only) as a packet of this file; its decoder configuration first. */
function checkedChunk(
  chunk: EncodedChunkMessage,
  first: boolean,
  file: VideoCodecChoice & { width: number; height: number; fps: number; alpha: boolean },
): { packet: EncodedPacket; meta: EncodedVideoChunkMetadata | undefined } {
  const { index, key, data, alpha, decoderConfig } = chunk;
  if (first && !(key && decoderConfig)) throw chunkError('the first is not a key chunk with a decoder configuration');
  if (file.alpha !== (alpha !== undefined)) throw chunkError(`frame ${index} ${file.alpha ? 'lacks' : 'has'} alpha`);
  if (alpha && alpha.byteLength > ENCODED_CHUNK_LIMITS.maxBytes)
    throw chunkError(`frame ${index}'s alpha is too large`);
  if (decoderConfig) {
    const { codec, codedWidth, codedHeight } = decoderConfig;
    if (codec !== file.codec) throw chunkError(`its codec is ${codec.slice(0, 100)}, not ${file.codec}`);
    if (codedWidth !== file.width || codedHeight !== file.height)
      throw chunkError(`it is ${codedWidth}×${codedHeight}, not ${file.width}×${file.height}`);
  }
  const packet = new EncodedPacket(
    new Uint8Array(data),
    key ? 'key' : 'delta',
    index / file.fps,
    1 / file.fps,
    undefined,
    undefined,
    alpha ? { alpha: new Uint8Array(alpha) } : undefined,
  );
  const meta = decoderConfig && {
    decoderConfig: {
      codec: decoderConfig.codec,
      codedWidth: decoderConfig.codedWidth,
      codedHeight: decoderConfig.codedHeight,
      ...(decoderConfig.description ? { description: decoderConfig.description } : {}),
      ...(decoderConfig.colorSpace ? { colorSpace: decoderConfig.colorSpace } : {}),
    },
  };
  return { packet, meta };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
