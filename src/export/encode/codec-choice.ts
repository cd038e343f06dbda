import { getFirstEncodableAudioCodec } from 'mediabunny';
import { FxError } from '../../runtime/errors.js';
import type { RenderQuality } from '../../wire/render-values.js';
import { ExportErrorCode } from '../codes.js';
import type { ExportFormat } from '../formats.js';
import { audioBitrate, videoBitrate } from './bitrates.js';
import { videoCodecString, type ExportVideoCodec } from './codec-strings.js';

/**
 * The video codecs of each container, in order of preference. MP4: H.264 first, as every player decodes it; then
 * VP9 and AV1, which MP4 carries too (`vp09`, `av01` sample entries; Chromium, Firefox, Safari 14+ and FFmpeg
 * play them), for a browser without an H.264 encoder or a size it refuses (odd widths or heights). VP9 before
 * AV1: as good a picture in this use and several times faster to encode in software. WebM: VP9 (keeps alpha),
 * then VP8 (keeps alpha too, mediabunny encodes the alpha plane as a second stream either way).
 */
export const VIDEO_CODEC_PREFERENCE: Readonly<Record<ExportFormat, readonly ExportVideoCodec[]>> = {
  mp4: ['avc', 'vp9', 'av1'],
  webm: ['vp9', 'vp8'],
};

/**
 * The audio codecs of each container, in order of preference. MP4: AAC where the browser has an encoder for it
 * (Chrome on macOS and Windows, Safari), as every player, QuickTime included, plays it; else Opus, which MP4
 * carries as an `Opus` sample entry (the Opus-in-ISOBMFF spec; FFmpeg, Chromium, Firefox and Safari 17+ play it).
 * Chromium on Linux and Firefox have no AAC encoder, so their mp4 has Opus, not silence. WebM: Opus, else Vorbis.
 */
export const AUDIO_CODEC_PREFERENCE: Readonly<Record<ExportFormat, readonly ('aac' | 'opus' | 'vorbis')[]>> = {
  mp4: ['aac', 'opus'],
  webm: ['opus', 'vorbis'],
};

export interface VideoCodecChoice {
  readonly videoCodec: ExportVideoCodec;
  /** The WebCodecs codec string, as checked and as mediabunny is told to use. */
  readonly codec: string;
  readonly bitrate: number;
}

export interface VideoCodecRequest {
  format: ExportFormat;
  width: number;
  height: number;
  fps: number;
  quality: RenderQuality;
  alpha: boolean;
}

/**
 * The first codec of the format's preference the browser's `VideoEncoder` takes at this size and rate. Throws
 * `export_unsupported` when there is no `VideoEncoder` or none of them is taken, naming the format, the size and
 * each codec string tried (with why, where it is known).
 */
export async function chooseVideoCodec(request: VideoCodecRequest): Promise<VideoCodecChoice> {
  const { format, width, height, fps, quality } = request;
  const size = `${width}×${height}`;
  if (typeof VideoEncoder === 'undefined')
    throw new FxError(
      ExportErrorCode.unsupported,
      `This browser has no VideoEncoder (WebCodecs), so it cannot encode ${format} in the page; render it on the service instead.`,
    );
  const tried: string[] = [];
  for (const videoCodec of VIDEO_CODEC_PREFERENCE[format]) {
    const bitrate = videoBitrate(videoCodec, quality, width, height, fps);
    const codec = videoCodecString(videoCodec, width, height, bitrate);
    if (videoCodec === 'avc' && (width % 2 === 1 || height % 2 === 1)) {
      // 4:2:0 H.264 has no odd sizes (mediabunny refuses them too).
      tried.push(`${codec} (H.264 needs an even width and height)`);
      continue;
    }
    if (await encoderTakes(encoderConfig(codec, videoCodec, request, bitrate))) return { videoCodec, codec, bitrate };
    tried.push(codec);
  }
  throw new FxError(
    ExportErrorCode.unsupported,
    `This browser cannot encode ${format} at ${size}, ${fps} fps: its VideoEncoder took none of ${tried.join(', ')}.`,
  );
}

/** The encoder configuration mediabunny will ask for (alpha is split off and encoded by a second, like encoder). */
function encoderConfig(
  codec: string,
  videoCodec: ExportVideoCodec,
  request: VideoCodecRequest,
  bitrate: number,
): VideoEncoderConfig {
  return {
    codec,
    width: request.width,
    height: request.height,
    bitrate,
    bitrateMode: 'variable',
    framerate: request.fps,
    latencyMode: 'quality',
    ...(videoCodec === 'avc' ? { avc: { format: 'avc' } } : {}),
  };
}

async function encoderTakes(config: VideoEncoderConfig): Promise<boolean> {
  try {
    return (await VideoEncoder.isConfigSupported(config)).supported === true;
  } catch {
    // A TypeError for a configuration the browser cannot even parse: not taken either.
    return false;
  }
}

export interface AudioCodecChoice {
  readonly codec: 'aac' | 'opus' | 'vorbis';
  readonly bitrate: number;
  readonly numberOfChannels: number;
  /** The rate it is encoded at: 48 kHz (Opus's own; AAC and Vorbis take it too), resampled by mediabunny. */
  readonly sampleRate: number;
}

/** Audio is encoded at 48 kHz, in at most two channels (WebCodecs' Opus and AAC encoders take no more everywhere). */
export const AUDIO_SAMPLE_RATE = 48_000;

/** The first audio codec of the format's preference the browser's `AudioEncoder` takes; `export_unsupported` else. */
export async function chooseAudioCodec(
  format: ExportFormat,
  quality: RenderQuality,
  channels: number,
): Promise<AudioCodecChoice> {
  const numberOfChannels = Math.min(2, Math.max(1, channels));
  const preference = AUDIO_CODEC_PREFERENCE[format];
  if (typeof AudioEncoder === 'undefined')
    throw new FxError(
      ExportErrorCode.unsupported,
      `This browser has no AudioEncoder (WebCodecs), so it cannot encode the sound of a ${format} in the page.`,
    );
  for (const codec of preference) {
    const bitrate = audioBitrate(codec, quality, numberOfChannels);
    const found = await getFirstEncodableAudioCodec([codec], {
      numberOfChannels,
      sampleRate: AUDIO_SAMPLE_RATE,
      bitrate,
    });
    if (found === codec) return { codec, bitrate, numberOfChannels, sampleRate: AUDIO_SAMPLE_RATE };
  }
  throw new FxError(
    ExportErrorCode.unsupported,
    `This browser cannot encode the sound of a ${format}: its AudioEncoder took none of ${preference.join(', ')} ` +
      `(${numberOfChannels} channel${numberOfChannels === 1 ? '' : 's'}, ${AUDIO_SAMPLE_RATE} Hz).`,
  );
}
