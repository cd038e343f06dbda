/**
 * Codes of in-browser export (`exportVideo`, `captureFrame`): every refusal and failure a caller can meet. What
 * the frame refuses to capture has codes of its own (`CaptureRefusalCode`), carried in the error's `refusals`.
 */
export const ExportErrorCode = {
  /** The browser lacks what the export needs (WebCodecs, an encoder for the format's codec at that size). */
  unsupported: 'export_unsupported',
  /** The encoder's code could not be loaded: a classic script without `fx-export-encoder.js` beside it, a chunk lost. */
  encoderUnavailable: 'export_encoder_unavailable',
  /** The capture check refused the composition before anything was captured; `refusals` names what and where. */
  captureRefused: 'export_capture_refused',
  /** The embed has no composition loaded (no `src`/`srcdoc`, or it failed to load). */
  notReady: 'export_not_ready',
  /** An option is not one the export takes (its message names it and what it takes). */
  optionInvalid: 'export_option_invalid',
  /** The frame did not answer a capture in time. */
  frameTimeout: 'export_frame_timeout',
  /** The frame could not rasterise a frame. */
  captureFailed: 'export_capture_failed',
  /** The encoder or the muxer failed. */
  encodeFailed: 'export_encode_failed',
  /** `signal` aborted the export; nothing is written. */
  aborted: 'export_aborted',
} as const;
export type ExportErrorCode = (typeof ExportErrorCode)[keyof typeof ExportErrorCode];
