/** Public names of `<fx-composition>`, said once. */
export const FxCompositionEvent = {
  loadedMetadata: 'loadedmetadata',
  durationChange: 'durationchange',
  volumeChange: 'volumechange',
  rateChange: 'ratechange',
  loadStart: 'loadstart',
  emptied: 'emptied',
  loadedData: 'loadeddata',
  canPlay: 'canplay',
  canPlayThrough: 'canplaythrough',
  play: 'play',
  playing: 'playing',
  waiting: 'waiting',
  pause: 'pause',
  timeUpdate: 'timeupdate',
  seeking: 'seeking',
  seeked: 'seeked',
  ended: 'ended',
  ready: 'ready',
  variablesChange: 'variableschange',
  variablesRead: 'variablesread',
  error: 'error',
} as const;
export type FxCompositionEvent = (typeof FxCompositionEvent)[keyof typeof FxCompositionEvent];

export const FxCompositionAttribute = {
  src: 'src',
  srcdoc: 'srcdoc',
  variables: 'variables',
  controls: 'controls',
  autoplay: 'autoplay',
  loop: 'loop',
  muted: 'muted',
  nonce: 'nonce',
  loading: 'loading',
  poster: 'poster',
  posterTime: 'poster-time',
} as const;

/** Codes of `error` events the element itself raises (compile and frame errors keep their own codes). */
export const FxCompositionErrorCode = {
  variablesJsonInvalid: 'variables_json_invalid',
  frameTimeout: 'frame_timeout',
  /** The frame's `fx-runtime.js` failed to load (its URL is in the message). */
  runtimeLoadFailed: 'runtime_load_failed',
  loadFailed: 'load_failed',
  srcInvalid: 'src_invalid',
  variablesNotCloneable: 'variables_not_cloneable',
  disconnected: 'disconnected',
} as const;

// The names these tables had before each element's tables were named for it (`FxRenderButtonEvent`,
// `FxVariablesPanelEvent`, …): the same objects, so code written against them keeps compiling and comparing.
/** @deprecated Use `FxCompositionEvent`, the same table. */
export const FxEvent = FxCompositionEvent;
/** @deprecated Use `FxCompositionEvent`, the same type. */
export type FxEvent = FxCompositionEvent;
/** @deprecated Use `FxCompositionAttribute`, the same table. */
export const FxAttribute = FxCompositionAttribute;
/** @deprecated Use `FxCompositionErrorCode`, the same table. */
export const FxErrorCode = FxCompositionErrorCode;
