/**
 * Stills (png, jpeg, webp): one frame of the compiled document, captured as a lossless PNG (on a transparent page
 * for png and webp) and encoded once by FFmpeg. FFmpeg rather than the browser's own JPEG/WebP screenshot: the
 * still is fitted into the output size exactly as the video encoder fits frames (letterbox bars, even sizes), and
 * the browser's screenshot is the composition's size; one PNG capture also keeps the browser's part the same for
 * all three formats. PNG is lossless RGBA; WebP is lossy at the JPEG quality of `quality`, its alpha kept (libwebp
 * codes alpha losslessly beside the picture); JPEG is 4:2:0 full-range (JFIF), opaque.
 */
import { JPEG_QUALITY } from './encoder-presets.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import type { RenderQuality, StillFormat } from '../wire/render-request.js';

/**
 * FFmpeg's JPEG encoder takes a quantiser scale (2 best … 31), not a 0–100 quality: the scale whose files match
 * the PSNR of Chromium's own JPEGs at `JPEG_QUALITY` (90 → 3: 37.5 dB both, on the 720p reference composition
 * of bench/render; 80 and 95 follow the same step).
 */
const MJPEG_QSCALE: Record<number, number> = { 80: 5, 90: 3, 95: 2 };

export interface StillSettings {
  readonly format: StillFormat;
  readonly quality: RenderQuality;
  readonly width: number;
  readonly height: number;
  readonly outputPath: string;
}

/** The FFmpeg arguments turning the one captured PNG on stdin into the still. */
export function stillArgs(settings: StillSettings): string[] {
  const { format, width, height } = settings;
  const quality = JPEG_QUALITY[settings.quality];
  const alpha = format !== 'jpeg';
  const fit = [
    `scale=w=${width}:h=${height}:force_original_aspect_ratio=decrease:flags=lanczos`,
    `format=${alpha ? 'rgba' : 'rgb24'}`,
    `pad=w=${width}:h=${height}:x=(ow-iw)/2:y=(oh-ih)/2:color=black${alpha ? '@0' : ''}`,
  ].join(',');
  const codec =
    format === 'png'
      ? ['-c:v', 'png', '-pix_fmt', 'rgba']
      : format === 'webp'
        ? ['-c:v', 'libwebp', '-lossless', '0', '-quality', String(quality), '-pix_fmt', 'yuva420p']
        : ['-c:v', 'mjpeg', '-q:v', String(MJPEG_QSCALE[quality] ?? 3), '-pix_fmt', 'yuvj420p'];
  return [
    ...['-f', 'image2pipe', '-c:v', 'png', '-i', 'pipe:0', '-vf', fit, '-frames:v', '1'],
    ...codec,
    ...['-f', format === 'webp' ? 'webp' : 'image2', ...(format === 'webp' ? [] : ['-update', '1'])],
    settings.outputPath,
  ];
}

/** Starts FFmpeg for one still; write the PNG, then `finish()`. */
export const startStillEncoder = (settings: StillSettings) =>
  new FfmpegProcess(stillArgs(settings), 'encoding the still');
