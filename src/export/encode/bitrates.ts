import type { RenderQuality } from '../../wire/render-values.js';
import type { ExportVideoCodec } from './codec-strings.js';

/**
 * Video bits per pixel of each frame, by quality, for H.264. The bitrate is `bpp × width × height × fps`: at
 * 1920×1080 and 30 fps that is 3.1, 6.2 and 12.4 Mbit/s, about what YouTube asks an upload of 1080p30 to carry
 * (8 Mbit/s) for `standard`, a third of it for `draft` previews, and enough for `high` to keep still text and flat
 * colour sharp (the renderer's own `high` is CRF 16, src/render/encoder-presets.ts). A rate, not a quantizer:
 * WebCodecs' `quantizer` bitrate mode is not in every browser, and a rate bounds the file (60 s of 1080p `high` is
 * about 93 MB).
 */
const BITS_PER_PIXEL: Readonly<Record<RenderQuality, number>> = { draft: 0.05, standard: 0.1, high: 0.2 };

/**
 * How many bits each codec needs for H.264's quality: VP9 and AV1 compress about a third better, VP8 about as well
 * (published comparisons at equal PSNR, e.g. the AOM and Netflix tests); a lower rate for the same picture.
 */
const CODEC_EFFICIENCY: Readonly<Record<ExportVideoCodec, number>> = { avc: 1, vp8: 1, vp9: 0.7, av1: 0.6 };

/** Below this an encoder's rate control starves small frames (a 320×180 thumbnail at `draft`). */
const MIN_VIDEO_BITRATE = 250_000;

/** The video bitrate (bit/s, VBR target) for a size, frame rate, quality and codec. */
export function videoBitrate(
  codec: ExportVideoCodec,
  quality: RenderQuality,
  width: number,
  height: number,
  fps: number,
): number {
  const bits = BITS_PER_PIXEL[quality] * CODEC_EFFICIENCY[codec] * width * height * fps;
  return Math.max(MIN_VIDEO_BITRATE, Math.round(bits));
}

/**
 * Audio bitrate (bit/s) of a stereo track by quality: Opus is transparent for most listeners from about 128 kbit/s
 * stereo, AAC-LC from about 160; `draft` halves it, `high` leaves headroom for music.
 */
const AUDIO_BITRATES: Readonly<Record<'opus' | 'aac' | 'vorbis', Readonly<Record<RenderQuality, number>>>> = {
  opus: { draft: 64_000, standard: 128_000, high: 192_000 },
  vorbis: { draft: 96_000, standard: 160_000, high: 224_000 },
  aac: { draft: 96_000, standard: 160_000, high: 256_000 },
};

/** The audio bitrate for a codec, quality and channel count (a mono track gets half). */
export function audioBitrate(codec: 'opus' | 'aac' | 'vorbis', quality: RenderQuality, channels: number): number {
  const stereo = AUDIO_BITRATES[codec][quality];
  return channels === 1 ? stereo / 2 : stereo;
}
