/**
 * The contract of the in-frame runtime: what `window.__fx` offers composition scripts, the element and the
 * renderer. The element and the renderer drive time through the same `seek`, so preview and render agree.
 */
export interface FxRuntime {
  /** Protocol/contract version. */
  readonly version: 1;
  /** Resolved values of the composition whose script calls it (each sub-composition instance sees its own). */
  getVariables(): Record<string, unknown>;
  /** Root duration in seconds, read once at compile time; scripts cannot change it. */
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

declare global {
  interface Window {
    __fx: FxRuntime;
    /** Overrides injected into the composition document (top level only). */
    __fxVariables?: Record<string, unknown>;
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
