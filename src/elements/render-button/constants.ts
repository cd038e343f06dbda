/** Public names of `<fx-render-button>`, said once. */
export const FxRenderButtonEvent = {
  progress: 'renderprogress',
  rendered: 'rendered',
  error: 'error',
} as const;
export type FxRenderButtonEvent = (typeof FxRenderButtonEvent)[keyof typeof FxRenderButtonEvent];

export const FxRenderButtonAttribute = {
  for: 'for',
  service: 'service',
  issuer: 'issuer',
  clientId: 'client-id',
  redirectUri: 'redirect-uri',
  format: 'format',
  quality: 'quality',
  resolution: 'resolution',
  fps: 'fps',
  time: 'time',
  thumbnailTime: 'thumbnail-time',
  range: 'range',
  noLoop: 'no-loop',
  metadata: 'metadata',
  pollInterval: 'poll-interval',
  mode: 'mode',
} as const;

/**
 * Where the button renders: `cloud` (the render service, the default), `browser` (in this page: `exportVideo`, no
 * service, no sign-in), `auto` (in the page when the browser can and the capture check passes, else the service).
 */
export const FxRenderButtonMode = { cloud: 'cloud', browser: 'browser', auto: 'auto' } as const;
export type FxRenderButtonMode = (typeof FxRenderButtonMode)[keyof typeof FxRenderButtonMode];

/** Codes of `error` events the button itself raises (the client's, the service's and sign-in's keep theirs). */
export const FxRenderButtonErrorCode = {
  /** `for` names no `<fx-composition>` in the button's document or shadow root. */
  compositionNotFound: 'render_button_composition_not_found',
  /** An attribute's value cannot be read (`range` not `start:end`, `metadata` not a JSON object); the message names it. */
  attributeInvalid: 'render_button_attribute_invalid',
  /** Something failed without a code of its own (a bug, most likely); the message says what. */
  failed: 'render_button_failed',
} as const;
