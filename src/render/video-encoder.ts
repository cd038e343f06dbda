import type { EncoderPreset } from './encoder-presets.js';
import { FfmpegProcess } from './ffmpeg-process.js';

export interface VideoEncodeSettings {
  readonly preset: EncoderPreset;
  readonly fps: number;
  /** Output size; frames of another size are scaled to fit and centred (transparent or black bars). */
  readonly width: number;
  readonly height: number;
  readonly outputPath: string;
  /** Container format name for FFmpeg (`mp4`, `webm`, `mov`). */
  readonly container: string;
}

/** Frames tagged BT.709 limited range, so players and FFmpeg decode them with the matrix they were made with. */
const TAG_BT709 = 'setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv';

/**
 * Fits frames into the output size, converted to BT.709 limited range (what players assume for HD). Chromium's
 * JPEGs are BT.601 full-range YCbCr of sRGB pixels, so only the matrix and the range change: the `colorspace`
 * filter does that exactly, and must see the decoder's own full-range frames (swscale would convert the range
 * first). PNGs are RGB, which one swscale pass converts and resizes exactly.
 */
function fitAndConvert(preset: EncoderPreset, width: number, height: number): string[] {
  const fit = `scale=w=${width}:h=${height}:force_original_aspect_ratio=decrease:flags=lanczos`;
  return preset.image === 'jpeg'
    ? [
        'colorspace=space=bt709:trc=bt709:primaries=bt709:range=tv:ispace=bt470bg:itrc=bt709:iprimaries=bt709:irange=pc:format=yuv420p',
        fit,
        `format=${preset.pixelFormat}`,
      ]
    : [`${fit}:out_color_matrix=bt709:out_range=tv`, `format=${preset.pixelFormat}`];
}

/**
 * The FFmpeg arguments that turn a stream of JPEG/PNG frames on stdin into the output video (no audio): frames
 * fitted into the output size and centred (black or transparent bars), converted to BT.709 and tagged so.
 */
export function videoEncodeArgs(settings: VideoEncodeSettings): string[] {
  const { preset, fps, width, height } = settings;
  const filter = [
    ...fitAndConvert(preset, width, height),
    `pad=w=${width}:h=${height}:x=(ow-iw)/2:y=(oh-ih)/2:color=black@0`,
    TAG_BT709,
  ].join(',');
  return [
    '-f',
    'image2pipe',
    '-framerate',
    String(fps),
    '-c:v',
    preset.image === 'png' ? 'png' : 'mjpeg',
    '-i',
    'pipe:0',
    '-vf',
    filter,
    ...preset.codec,
    '-pix_fmt',
    preset.pixelFormat,
    '-colorspace',
    'bt709',
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-color_range',
    'tv',
    '-an',
    ...preset.container,
    '-f',
    settings.container,
    settings.outputPath,
  ];
}

/** Starts FFmpeg for one output; write frames in order, then `finish()`. */
export function startVideoEncoder(settings: VideoEncodeSettings): FfmpegProcess {
  return new FfmpegProcess(videoEncodeArgs(settings), 'encoding the video');
}
