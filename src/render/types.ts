/**
 * The renderer's contract with the service and the CLI (implemented in src/render).
 */
import type { Issue } from '../runtime/issues.js';

import type { AspectRatio, RenderFormat, RenderQuality, RenderResolution, TimeRange } from '../wire/render-request.js';

// The option lists are the wire's (src/wire/render-request.ts): what the service accepts, the renderer renders.
export type { AspectRatio, RenderFormat, RenderQuality, RenderResolution, TimeRange };
/**
 * How frames are taken: `begin-frame` drives `chromium-headless-shell` frame by frame
 * (`HeadlessExperimental.beginFrame`), `screenshot` uses `Page.captureScreenshot` in the full Chromium;
 * `auto` prefers `begin-frame` when the shell is installed.
 */
export type CaptureMode = 'auto' | 'begin-frame' | 'screenshot';

export interface RenderOptions {
  /** Directory holding the project (entry HTML, assets, sub-compositions). */
  readonly projectDir: string;
  /** Entry HTML file inside the project, e.g. `index.html`. */
  readonly composition: string;
  readonly fps: number;
  readonly quality: RenderQuality;
  readonly format: RenderFormat;
  /**
   * Output size (1080p 16:9 = 1920×1080, 9:16 = 1080×1920, 1:1 = 1080×1080; 4k doubles). When omitted the
   * composition's own `data-width`/`data-height` are used (rounded up to even numbers), unless `aspectRatio` is
   * given, which implies 1080p.
   */
  readonly resolution?: RenderResolution;
  /** Shape of the output; auto-detected from the composition's size when omitted. */
  readonly aspectRatio?: AspectRatio;
  /** Top-level overrides, injected exactly as the preview injects `window.__fxVariables`. */
  readonly variables?: Record<string, unknown>;
  /**
   * Folders (http(s) URLs) beyond the project whose files the composition may have the compiler read and inline,
   * as `<fx-composition allowCompositionReadsUnder>` does in a page. Default: none, the project only.
   */
  readonly allowCompositionReadsUnder?: readonly string[];
  /**
   * Render even when the composition names files its project does not have (`project_file_missing`): they show
   * as the browser shows a missing file (a broken image, nothing), and are listed in the result's `issues`.
   * Default false: the render is refused with `project_file_missing` before a frame is captured.
   */
  readonly allowMissingFiles?: boolean;
  /**
   * Stills (`png`, `jpeg`, `webp`) only: seconds into the composition of the frame to render, snapped to the frame
   * grid of `fps` (src/wire/frames.ts). Default: the middle, as the element's poster.
   */
  readonly time?: number;
  /** Videos and GIF: seconds into the composition of the thumbnail's frame. Default: 1 s into the output, or its middle. */
  readonly thumbnailTime?: number;
  /** Videos and GIF: render only `[start, end)` of the timeline (frame-exact; the audio cut to match). */
  readonly range?: TimeRange;
  /** GIF only: loop forever (default) or play once. */
  readonly loop?: boolean;
  /** Where to write the output (a video, a GIF or a still); a video's or GIF's thumbnail goes next to it. */
  readonly outputPath: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RenderProgress) => void;
  /** Capture workers (browser processes), each taking every n-th frame. Default: see `DEFAULT_CONCURRENCY`. */
  readonly concurrency?: number;
  /** Default `auto`. */
  readonly capture?: CaptureMode;
  /** Longest wait for any one step (browser start, page load, one frame, FFmpeg finishing). Default 30 s. */
  readonly timeoutMs?: number;
  /**
   * Longest composition rendered, in seconds (default 600): a longer root `data-duration` fails with
   * `composition_duration_too_long` before any frame is captured.
   */
  readonly maxDurationSeconds?: number;
  /** Most frames rendered (duration × fps; default 36 000, 10 min at 60 fps); more fail the same way. */
  readonly maxFrames?: number;
  /**
   * Lets the page and FFmpeg load from loopback and private networks (and open WebSockets). Default false: an
   * uploaded project could otherwise read the render machine's network (cloud metadata, internal services, other
   * renders) into its video. For tests and local development only.
   */
  readonly unsafeAllowPrivateNetwork?: boolean;
}

export type RenderStage = 'compiling' | 'loading' | 'capturing' | 'encoding' | 'muxing' | 'done';

export interface RenderProgress {
  readonly stage: RenderStage;
  readonly framesDone: number;
  readonly framesTotal: number;
}

export interface RenderResult {
  /** The output: a video, a GIF or a still. */
  readonly videoPath: string;
  /** A still's thumbnail is the still itself (the same path). */
  readonly thumbnailPath: string;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frames: number;
  /** Seconds: frames / fps, 0 for a still. */
  readonly duration: number;
  /** Seconds into the composition of the first frame: 0, the start of `range`, or the still's time. */
  readonly start: number;
  /** Problems that did not stop the render: compile (a missing sub-composition, left empty), refused bindings, network, audio. */
  readonly issues?: readonly Issue[];
  /** Whether audio from `<audio>` / `<video data-has-audio>` was mixed in. */
  readonly hasAudio?: boolean;
  /** The capture path actually used. */
  readonly capture?: Exclude<CaptureMode, 'auto'>;
}

export type RenderFunction = (options: RenderOptions) => Promise<RenderResult>;

/** Options shared by every row of a batch; each row's values are merged over `variables`. */
export type BatchBaseOptions = Omit<RenderOptions, 'outputPath' | 'onProgress'> & {
  /** Output path of row `index` (0-based); must give a distinct path per row. */
  readonly outputPath: (row: Record<string, unknown>, index: number) => string;
  readonly onProgress?: (progress: RenderProgress & { readonly row: number }) => void;
};

export interface BatchOptions {
  /** Rows rendered at the same time (default 1). */
  readonly concurrency?: number;
}

/** One row's outcome, in row order. */
export type BatchRowResult =
  | { readonly row: number; readonly status: 'completed'; readonly result: RenderResult }
  | {
      readonly row: number;
      readonly status: 'failed';
      readonly error: { readonly code: string; readonly message: string };
    };
