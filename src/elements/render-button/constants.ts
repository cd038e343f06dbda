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
  pollInterval: 'poll-interval',
} as const;

/** Codes of `error` events the button itself raises (the client's, the service's and sign-in's keep theirs). */
export const FxRenderButtonErrorCode = {
  /** `for` names no `<fx-composition>` in the button's document or shadow root. */
  compositionNotFound: 'render_button_composition_not_found',
  /** Something failed without a code of its own (a bug, most likely); the message says what. */
  failed: 'render_button_failed',
} as const;
