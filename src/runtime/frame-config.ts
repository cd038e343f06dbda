/**
 * What the compiler writes into a document for the in-frame runtime: a JSON configuration element and the
 * attributes it marks instances with. Shared by the compiler and the runtime, so the names are said once.
 */
export const CONFIG_ELEMENT_ID = 'fx-config';

export const FrameAttr = {
  /** Unique id of a sub-composition instance, on its root (the host element). */
  instance: 'data-fx-instance',
  /** The scoped stylesheet of an instance. */
  instanceStyle: 'data-fx-instance-style',
  /** A wrapped script of an instance. */
  instanceScript: 'data-fx-instance-script',
  /** Set on a host whose sub-composition failed to compile; holds the error code. */
  error: 'data-fx-error',
  /** Set by the runtime on clips outside their time window. */
  hidden: 'data-fx-hidden',
} as const;

/**
 * The globals compositions written for HyperFrames use, answered by the runtime as aliases of its own: the same
 * object and values, scoped per sub-composition instance like `__fx`, with the same precedence. On unless the
 * composition's root or `<html>` says `data-fx-compat="none"` (for a page that defines these names itself).
 */
export const HYPERFRAMES_GLOBALS = { runtime: '__hyperframes', overrides: '__hfVariables' } as const;
/** The `data-fx-compat` value that turns the aliases off. */
export const COMPAT_NONE = 'none';

export interface FrameConfig {
  readonly version: 1;
  readonly compositionId: string;
  /** Root duration in seconds, fixed at compile time (0 when it comes from the timeline). */
  readonly duration: number;
  /** No root `data-duration`: the runtime measures the registered root timeline's length (timeline-duration.ts). */
  readonly durationFromTimeline: boolean;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  /** Top-level overrides (`window.__fxVariables`). */
  readonly overrides: Record<string, unknown>;
  /** Whether `window.__hyperframes` and `window.__hfVariables` answer as aliases (see `HYPERFRAMES_GLOBALS`). */
  readonly aliases: boolean;
}
