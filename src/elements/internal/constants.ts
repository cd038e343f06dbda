/** Public names of `<fx-composition>`, said once. */
export const FxEvent = {
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
export type FxEvent = (typeof FxEvent)[keyof typeof FxEvent];

export const FxAttribute = {
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
export const FxErrorCode = {
  variablesJsonInvalid: 'variables_json_invalid',
  frameTimeout: 'frame_timeout',
  /** The frame's `fx-runtime.js` failed to load (its URL is in the message). */
  runtimeLoadFailed: 'runtime_load_failed',
  loadFailed: 'load_failed',
  srcInvalid: 'src_invalid',
  variablesNotCloneable: 'variables_not_cloneable',
  disconnected: 'disconnected',
} as const;
