/** The `/v3` client: `FxClient`, the request/response pairs it is made of, its errors and its credentials contract. */
export { FxClient } from './fx-client.js';
export { apiKeyCredentials } from './api-key.js';
export type { Credentials } from './credentials.js';
export { FxApiError, ClientErrorCode, type ApiErrorCode } from './errors.js';
export { clientConfig, type ClientOptions, type ClientConfig } from './options.js';
export type { RetryOptions } from './retry.js';
export {
  uploadAssetRequest,
  processUploadAssetResponse,
  createRenderRequest,
  processCreateRenderResponse,
  dryRunRenderRequest,
  processDryRunRenderResponse,
  getRenderRequest,
  processGetRenderResponse,
  listRendersRequest,
  processListRendersResponse,
  deleteRenderRequest,
  processDeleteRenderResponse,
  getAccountRequest,
  processGetAccountResponse,
  type CallOptions,
  type IdempotentCallOptions,
  type UploadOptions,
  type ListOptions,
} from './calls.js';
export { waitForRender, type WaitOptions } from './wait.js';
export {
  downloadRender,
  downloadRenderStream,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadedFile,
} from './download.js';
export type { Account, Asset, DeletedRender, DryRun, Render, RenderList } from '../wire/responses.js';
export type {
  RenderRequest,
  RenderFormat,
  RenderQuality,
  RenderResolution,
  AspectRatio,
  TimeRange,
} from '../wire/render-request.js';
export { ErrorCode, RenderStatus } from '../wire/constants.js';
export * from './zip/index.js';
export {
  cloudRender,
  type CloudProject,
  type CloudRenderOptions,
  type CloudRenderResult,
  type CloudDryRunOptions,
  type CloudDryRunResult,
  type EmbedLike,
} from './cloud-render.js';
export {
  cloudRenderBatch,
  MAX_BATCH_CONCURRENCY,
  type BatchManifestRow,
  type CloudBatchOptions,
} from './cloud-render-batch.js';
export { BatchErrorCode, batchRows } from './batch-rows.js';
export { fillMetadata } from './metadata-placeholders.js';
export type { RenderSettingsOptions } from './render-settings.js';
export { CsvErrorCode, parseCsv } from './csv.js';
export { CloudRenderStage, describeProgress, progressFraction, type CloudRenderProgress } from './progress.js';
