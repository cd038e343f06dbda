import type { ImageFormat } from './page.js';
import type { RenderFormat, RenderQuality } from './types.js';

/** How frames are captured and encoded for one format and quality. */
export interface EncoderPreset {
  /** Frame image from the browser: JPEG is about twice as fast; PNG keeps alpha. */
  readonly image: ImageFormat;
  /** JPEG quality 0–100 (ignored for PNG). */
  readonly jpegQuality: number;
  readonly pixelFormat: string;
  /** Codec and rate-control arguments. */
  readonly codec: readonly string[];
  /** Container arguments. */
  readonly container: readonly string[];
  /** Audio codec arguments for the mux pass. */
  readonly audio: readonly string[];
}

const H264: Record<RenderQuality, readonly string[]> = {
  draft: ['-preset', 'ultrafast', '-crf', '28'],
  standard: ['-preset', 'veryfast', '-crf', '20'],
  high: ['-preset', 'medium', '-crf', '16'],
};

// `realtime` is about 3× faster than the default deadline at this size (TOOLCHAIN.md); `-b:v 0` = constant quality.
const VP9: Record<RenderQuality, readonly string[]> = {
  draft: ['-deadline', 'realtime', '-cpu-used', '8', '-crf', '40'],
  standard: ['-deadline', 'realtime', '-cpu-used', '6', '-crf', '30'],
  high: ['-deadline', 'good', '-cpu-used', '2', '-crf', '22'],
};

// prores_ks: lower `qscale` = higher quality and bitrate.
const PRORES: Record<RenderQuality, readonly string[]> = {
  draft: ['-qscale:v', '13'],
  standard: ['-qscale:v', '8'],
  high: ['-qscale:v', '3'],
};

/** Chromium's JPEG quality of captured frames, and the quality of JPEG and WebP stills. */
export const JPEG_QUALITY: Record<RenderQuality, number> = { draft: 80, standard: 90, high: 95 };

/**
 * The encoder settings of every format and quality, said once. Chunked renders (`chunks/join.ts`) join separate
 * encodes with these settings by stream copy: each encode opens with a keyframe and its GOPs are closed (x264's
 * default, no open-gop; VP9's alt-refs stay in their file; ProRes is intra-only), so nothing refers across a join.
 */
export function encoderPreset(format: RenderFormat, quality: RenderQuality): EncoderPreset {
  switch (format) {
    case 'mp4':
      return {
        image: 'jpeg',
        jpegQuality: JPEG_QUALITY[quality],
        pixelFormat: 'yuv420p',
        codec: ['-c:v', 'libx264', ...H264[quality]],
        container: ['-movflags', '+faststart'],
        audio: ['-c:a', 'aac', '-b:a', '192k'],
      };
    case 'webm':
      return {
        image: 'png',
        jpegQuality: 0,
        pixelFormat: 'yuva420p',
        codec: ['-c:v', 'libvpx-vp9', '-b:v', '0', '-row-mt', '1', ...VP9[quality]],
        container: [],
        audio: ['-c:a', 'libopus', '-b:a', '128k'],
      };
    case 'mov':
      return {
        image: 'png',
        jpegQuality: 0,
        pixelFormat: 'yuva444p10le',
        codec: ['-c:v', 'prores_ks', '-profile:v', '4444', '-vendor', 'apl0', ...PRORES[quality]],
        container: [],
        audio: ['-c:a', 'pcm_s16le'],
      };
    case 'gif':
      // Opaque JPEG frames, as mp4: the palette pass (gif-encoder.ts) makes the GIF; no audio.
      return {
        image: 'jpeg',
        jpegQuality: JPEG_QUALITY[quality],
        pixelFormat: 'rgb24',
        codec: [],
        container: [],
        audio: [],
      };
    case 'png':
    case 'jpeg':
    case 'webp':
      // One lossless PNG capture (alpha on a transparent page for png and webp), encoded once by still.ts.
      return {
        image: 'png',
        jpegQuality: JPEG_QUALITY[quality],
        pixelFormat: format === 'jpeg' ? 'yuvj444p' : 'rgba',
        codec: [],
        container: [],
        audio: [],
      };
  }
}
