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

export interface FrameConfig {
  readonly version: 1;
  readonly compositionId: string;
  /** Root duration in seconds, fixed at compile time. */
  readonly duration: number;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  /** Top-level overrides (`window.__fxVariables`). */
  readonly overrides: Record<string, unknown>;
}
