/**
 * Animated GIF in two FFmpeg passes. While frames are captured, the first pass keeps them (the captured JPEGs,
 * stream-copied into Matroska: no second lossy step, a fraction of a lossless copy's size) and builds one palette
 * from the colours of every frame (`palettegen=stats_mode=full`). The second maps each frame onto that palette.
 */
import type { EncoderPreset } from './encoder-presets.js';
import { FfmpegProcess } from './ffmpeg-process.js';

/**
 * Ordered Bayer dithering rather than error diffusion: its pattern is fixed to the pixel grid, so an area that does
 * not change between frames is dithered alike in every frame. Flat areas do not shimmer, and `diff_mode=rectangle`
 * then stores only the rectangle that changed. `bayer_scale` 4 of 0–5 (lower: a more visible crosshatch, less
 * banding). Measured on the 1080p reference composition of bench/render (3 s at 15 fps, one palette): scale 4 makes
 * 5.5 MB at 34.4 dB against the source, scale 3 6.5 MB at 33.8 dB (its crosshatch shows on the dark cards), 2
 * 6.9 MB at 32.0 dB; error diffusion 5.7 MB (Floyd–Steinberg) and 7.3 MB (sierra2_4a, FFmpeg's default) at 34.4 dB.
 */
export const GIF_DITHER = 'dither=bayer:bayer_scale=4:diff_mode=rectangle';

export interface GifSettings {
  readonly preset: EncoderPreset;
  readonly fps: number;
  readonly width: number;
  readonly height: number;
  /** The captured frames as they came (Matroska, MJPEG copied). */
  readonly framesPath: string;
  readonly palettePath: string;
}

/** Fitted into the output size, centred on black bars (a GIF is opaque), in RGB. */
const fit = (width: number, height: number) =>
  `scale=w=${width}:h=${height}:force_original_aspect_ratio=decrease:flags=lanczos,format=rgb24,` +
  `pad=w=${width}:h=${height}:x=(ow-iw)/2:y=(oh-ih)/2:color=black`;

/** Pass 1, fed the captured JPEGs on stdin: keeps them, and writes the palette of all of them at the end. */
export function gifPaletteArgs(settings: GifSettings): string[] {
  const { fps, width, height } = settings;
  return [
    ...['-f', 'image2pipe', '-framerate', String(fps), '-c:v', 'mjpeg', '-i', 'pipe:0'],
    ...['-filter_complex', `[0:v]${fit(width, height)},palettegen=stats_mode=full[palette]`],
    ...['-map', '0:v', '-c:v', 'copy', '-f', 'matroska', settings.framesPath],
    ...['-map', '[palette]', '-c:v', 'png', '-f', 'image2', '-update', '1', settings.palettePath],
  ];
}

/** Pass 2: every kept frame onto the palette; `-loop 0` plays forever, `-loop -1` once. */
export function gifArgs(settings: GifSettings & { readonly loop: boolean; readonly outputPath: string }): string[] {
  const { width, height } = settings;
  return [
    ...['-protocol_whitelist', 'file', '-f', 'matroska', '-i', `file:${settings.framesPath}`],
    ...['-protocol_whitelist', 'file', '-f', 'png_pipe', '-i', `file:${settings.palettePath}`],
    ...['-filter_complex', `[0:v]${fit(width, height)}[frames];[frames][1:v]paletteuse=${GIF_DITHER}`],
    ...['-loop', settings.loop ? '0' : '-1', '-f', 'gif', settings.outputPath],
  ];
}

export const startGifPalettePass = (settings: GifSettings) =>
  new FfmpegProcess(gifPaletteArgs(settings), 'encoding the GIF frames');
export const startGifPass = (settings: Parameters<typeof gifArgs>[0]) =>
  new FfmpegProcess(gifArgs(settings), 'making the GIF');
