import type { Issue } from '../issues.js';

/**
 * The contract of the in-frame runtime: what `window.__fx` offers composition scripts, the element and the
 * renderer. The element and the renderer drive time through the same `seek`, so preview and render agree.
 */
export interface FxRuntime {
  /** Protocol/contract version. */
  readonly version: 1;
  /**
   * Resolved values of the composition whose script calls it (each sub-composition instance sees its own), a fresh
   * object per call. The top level's is a recording Proxy (which ids scripts read, for the host's variables panel):
   * spread it (`{ ...getVariables() }`) before `postMessage` or `structuredClone`, which refuse a Proxy.
   */
  getVariables(): Record<string, unknown>;
  /**
   * Root duration in seconds: the root's `data-duration`, read once at compile time, or without one the length of
   * the timeline registered as `window.__timelines[<root id>]`, measured once before `ready` settles (0 until then,
   * and when there is no usable timeline). Scripts cannot change it afterwards.
   */
  readonly duration: number;
  /** Frame rate of the frame grid `seek` quantizes to. */
  readonly fps: number;
  /** Current composition time in seconds. */
  readonly currentTime: number;
  readonly paused: boolean;
  /** Settles once composition scripts ran, media was probed and the first frame is ready to paint. */
  readonly ready: Promise<void>;
  /**
   * Moves every timeline, animation, clip window and media element to `seconds` (clamped to [0, duration] and
   * quantized to the frame grid) and resolves with that time once the frame is ready to paint (media seeked,
   * fonts and images decoded). The renderer captures right after it resolves.
   */
  seek(seconds: number): Promise<number>;
  play(): void;
  pause(): void;
}

/**
 * Read-only extras the renderer uses, installed non-enumerable on the top-level `window.__fx` (not part of the
 * author-facing contract).
 */
export interface FxRendererHooks {
  /**
   * The resolved time window of a timed element (clip, `<video>`, `<audio>`, sub-composition) in composition
   * seconds, `undefined` for an element outside the timeline. The renderer reads media windows with it to mix
   * audio at the same offsets the runtime plays media at.
   */
  clipWindow(element: Element): { start: number; end: number } | undefined;
  /**
   * The bindings the runtime refused or could not apply (`binding_*`, `css_property_rejected`, font issues), each
   * path prefixed with its sub-composition instance: a render reports them, as the preview does.
   */
  bindingIssues(): Issue[];
  /**
   * Why `duration` is 0 for a composition whose duration was to come from its registered timeline
   * (`composition_duration_missing`, `timeline_duration_invalid`); `undefined` otherwise.
   */
  durationIssue(): Issue | undefined;
  /**
   * Resolves once no media element of the composition is seeking, however long that takes. `seek` stops waiting
   * for a media element after a few seconds, so that a preview answers; a frame captured while a video still seeks
   * shows another frame of it (and in Chromium, every later capture of that video too), so the renderer waits.
   */
  mediaSeeked(): Promise<void>;
  /** The clips the output's sound is mixed from (audio-clips.ts): the renderer's mix and an export's are one plan. */
  audioClips(): AudioClip[];
}

/** One sound of the composition: a media element's resolved source, its clip window (seconds) and volume. */
export interface AudioClip {
  readonly src: string;
  readonly start: number;
  readonly end: number;
  readonly volume: number;
  /** `audio` or `video`. */
  readonly tag: string;
}

declare global {
  interface Window {
    __fx: FxRuntime;
    /** Overrides injected into the composition document (top level only). */
    __fxVariables?: Record<string, unknown>;
    /** `window.__fx` under its HyperFrames name (unless the composition turned the aliases off). */
    __hyperframes?: FxRuntime;
    /** `window.__fxVariables` under its HyperFrames name: injected overrides, read when `__fxVariables` is absent. */
    __hfVariables?: Record<string, unknown>;
    /** GSAP-style timelines by composition id, picked up and driven by the runtime. */
    __timelines?: Record<string, SeekableTimeline>;
  }
}

/** What the runtime needs of a GSAP-style timeline (duck-typed). */
export interface SeekableTimeline {
  seek(time: number, suppressEvents?: boolean): unknown;
  pause(): unknown;
  time?(): number;
  duration?(): number;
}
