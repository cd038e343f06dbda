/** In-browser export: a video or a still of an `<fx-composition>`, made in the page with no render service. */
export { exportVideo, type ExportVideoOptions, type ExportVideoResult } from './export-video.js';
export { captureFrame, type CaptureFrameOptions } from './capture-still.js';
export { ExportErrorCode } from './codes.js';
export type { ExportProgress } from './progress.js';
export { EXPORT_FORMATS, STILL_TYPES, type ExportFormat, type StillType } from './formats.js';
export {
  CaptureRasteriser,
  CaptureRefusalCode,
  CAPTURE_RASTERISERS,
  type CaptureRasteriserChoice,
  type CaptureRefusal,
} from '../runtime/capture-codes.js';
