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
 * The colour conversion into BT.709 limited range (what players assume for HD). Chromium's JPEGs are BT.601
 * full-range YCbCr of sRGB pixels: only the matrix and the range change (the `colorspace` filter does this
 * exactly; swscale's matrix change is off by a few levels). PNGs are RGB, which swscale converts exactly.
 */
function toBt709(preset: EncoderPreset): string {
  return preset.image === 'jpeg'
    ? `colorspace=space=bt709:trc=bt709:primaries=bt709:range=tv:ispace=bt470bg:itrc=bt709:iprimaries=bt709:irange=pc,format=${preset.pixelFormat}`
    : `scale=out_color_matrix=bt709:out_range=tv,format=${preset.pixelFormat}`;
}

/**
 * The FFmpeg arguments that turn a stream of JPEG/PNG frames on stdin into the output video (no audio): frames
 * fitted into the output size and centred (black or transparent bars), converted to BT.709 and tagged so.
 */
export function videoEncodeArgs(settings: VideoEncodeSettings): string[] {
  const { preset, fps, width, height } = settings;
  const filter = [
    `scale=w=${width}:h=${height}:force_original_aspect_ratio=decrease:flags=lanczos`,
    toBt709(preset),
    `pad=w=${width}:h=${height}:x=(ow-iw)/2:y=(oh-ih)/2:color=black@0`,
    TAG_BT709,
  ].join(',');
  return [
    '-f', 'image2pipe',
    '-framerate', String(fps),
    '-c:v', preset.image === 'png' ? 'png' : 'mjpeg',
    '-i', 'pipe:0',
    '-vf', filter,
    ...preset.codec,
    '-pix_fmt', preset.pixelFormat,
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    '-an',
    ...preset.container,
    '-f', settings.container,
    settings.outputPath,
  ];
}

/** Starts FFmpeg for one output; write frames in order, then `finish()`. */
export function startVideoEncoder(settings: VideoEncodeSettings): FfmpegProcess {
  return new FfmpegProcess(videoEncodeArgs(settings), 'encoding the video');
}
