/**
 * The renderer (Node only): a composition project to a video file through Chromium and FFmpeg, from the same
 * compiled document and runtime the `<fx-composition>` preview uses.
 */
export { render, thumbnailPathFor } from './render.js';
export { renderBatch } from './batch.js';
export { planChunks, checkChunkRanges, ChunkProgress, DEFAULT_MIN_CHUNK_FRAMES } from './chunks/plan.js';
export type { FrameRange, ChunkPlanOptions } from './chunks/plan.js';
export { renderChunk } from './chunks/render.js';
export type { ChunkOptions, ChunkResult, TimelineAudioClip } from './chunks/render.js';
export { joinChunks } from './chunks/join.js';
export type { JoinChunksOptions } from './chunks/join.js';
export { RenderErrorCode } from './errors.js';
export {
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  ASPECT_RATIOS,
  CAPTURE_MODES,
  ALPHA_FORMATS,
  FOUR_K_FORMATS,
  GIF_FPS,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_DURATION_SECONDS,
  DEFAULT_MAX_FRAMES,
  MAX_FPS,
  checkOptions,
  detectAspectRatio,
  outputGeometry,
} from './options.js';
export { AudioIssueCode } from './audio.js';
export { NetworkIssueCode } from './network/policy.js';
export type {
  RenderOptions,
  RenderResult,
  RenderProgress,
  RenderStage,
  RenderFunction,
  RenderFormat,
  RenderQuality,
  RenderResolution,
  AspectRatio,
  CaptureMode,
  BatchBaseOptions,
  BatchOptions,
  BatchRowResult,
} from './types.js';
