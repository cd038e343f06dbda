/**
 * In-browser export encoded in the export frame (issue 33): the host chooses the codec, the frame encodes its own
 * pictures with exactly this configuration and sends the chunks, and the host only muxes them. Where the browser
 * runs sandboxed frames in a process of their own (Chromium), the host page's main thread then carries neither the
 * pictures' bytes nor the encoder's calls. The names both ends use.
 */

/** How the frame encodes, as the host chose it (src/export/encode/codec-choice.ts). */
export interface CaptureEncoding {
  /** The WebCodecs codec string, as the host checked it with `VideoEncoder.isConfigSupported`. */
  readonly codec: string;
  readonly bitrate: number;
  readonly fps: number;
  /** Frames from one key frame to the next; frame 0 is one. */
  readonly keyFrameEvery: number;
  /** Also encode the alpha plane as a second stream (VP9 and VP8 in WebM keep it as each block's side data). */
  readonly alpha: boolean;
  /** H.264 in `avc` form: the parameter sets in the decoder configuration's description, as MP4 carries them. */
  readonly avc: boolean;
}

/** The encoder configuration of `encoding` at a picture size: what the host checks and what the frame configures. */
export function videoEncoderConfig(
  encoding: Pick<CaptureEncoding, 'codec' | 'bitrate' | 'fps' | 'avc'>,
  width: number,
  height: number,
): VideoEncoderConfig {
  return {
    codec: encoding.codec,
    width,
    height,
    bitrate: encoding.bitrate,
    bitrateMode: 'variable',
    framerate: encoding.fps,
    // No frame may be dropped: every frame of the grid is in the file.
    latencyMode: 'quality',
    ...(encoding.avc ? { avc: { format: 'avc' } } : {}),
  };
}

/** Frame `index`'s timestamp and duration on the grid, in microseconds (WebCodecs' unit). */
export const gridMicroseconds = (index: number, fps: number) => ({
  timestamp: Math.round((index * 1e6) / fps),
  duration: Math.round(1e6 / fps),
});

/** Bounds of what the host takes from a frame's encoder (hostile): one chunk's bytes, a decoder description's. */
export const ENCODED_CHUNK_LIMITS = { maxBytes: 64 * 1024 * 1024, maxDescriptionBytes: 64 * 1024 } as const;
