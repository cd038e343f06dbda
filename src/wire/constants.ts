/**
 * Public names of the `/v3` wire format, said once for the service, the client and the CLI. openapi.yaml documents
 * each of them; test/service/openapi.node.test.ts keeps the three in step. Browser-safe: no I/O, nothing imported
 * from outside src/wire.
 */
import { ZipErrorCode } from './zip-limits.js';

/** Stable error codes with their HTTP status. */
export const ErrorCode = {
  bodyInvalid: 'body_invalid',
  /** The request is not HTTP/1.1 the server can parse (answered before any route runs). */
  requestMalformed: 'request_malformed',
  parameterUnknown: 'parameter_unknown',
  parameterMissing: 'parameter_missing',
  parameterInvalid: 'parameter_invalid',
  parameterConflict: 'parameter_conflict',
  /** `variables` nested deeper than `limits.variablesDepth`. */
  variablesTooDeep: 'variables_too_deep',
  resolutionFormatUnsupported: 'resolution_format_unsupported',
  /** `metadata` nested deeper than `METADATA_LIMITS.depth`. */
  metadataTooDeep: 'metadata_too_deep',
  /** `metadata` larger than `METADATA_LIMITS.bytes` as JSON. */
  metadataTooLarge: 'metadata_too_large',
  /** A still's `time`, or the `thumbnail_time`, falls outside what the render outputs. */
  timeOutsideDuration: 'time_outside_duration',
  /** The `range` ends past the composition's end. */
  rangeOutsideDuration: 'range_outside_duration',
  callbackUrlInsecure: 'callback_url_insecure',
  urlNotAllowed: 'url_not_allowed',
  idempotencyKeyInvalid: 'idempotency_key_invalid',
  credentialsNotAccepted: 'credentials_not_accepted',
  authenticationRequired: 'authentication_required',
  invalidToken: 'invalid_token',
  signedUrlExpired: 'signed_url_expired',
  signedUrlInvalid: 'signed_url_invalid',
  routeNotFound: 'route_not_found',
  renderNotFound: 'render_not_found',
  assetNotFound: 'asset_not_found',
  fileNotFound: 'file_not_found',
  idempotencyKeyInProgress: 'idempotency_key_in_progress',
  /** The request headers took too long to arrive (Node's `headersTimeout` / `requestTimeout`). */
  requestTimeout: 'request_timeout',
  bodyTooLarge: 'body_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  /** The request headers are larger than the server reads (Node's `maxHeaderSize`, 16 KiB by default). */
  headersTooLarge: 'headers_too_large',
  renderProjectInvalid: 'render_project_invalid',
  compositionNotFound: 'composition_not_found',
  urlFetchFailed: 'url_fetch_failed',
  /** The renderer's own code (`RenderErrorCode.durationTooLong`): submit and render refuse it the same way. */
  compositionTooLong: 'composition_duration_too_long',
  /**
   * The compiler's own code (`CompileIssueCode.fileMissing`): the entry (its sub-compositions, the stylesheets they
   * link) names files the asset lacks; submit refuses it as the render would, unless `allow_missing_files`.
   */
  projectFileMissing: 'project_file_missing',
  rangeNotSatisfiable: 'range_not_satisfiable',
  idempotencyKeyReused: 'idempotency_key_reused',
  // A refused project: the same codes whether the service or the client refuses it (zip-limits.ts).
  ...ZipErrorCode,
  internalError: 'internal_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const STATUS_BY_PREFIX: readonly [RegExp, number][] = [[/^zip_/, 422]];

const STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.authenticationRequired]: 401,
  [ErrorCode.invalidToken]: 401,
  [ErrorCode.signedUrlExpired]: 403,
  [ErrorCode.signedUrlInvalid]: 403,
  [ErrorCode.routeNotFound]: 404,
  [ErrorCode.renderNotFound]: 404,
  [ErrorCode.assetNotFound]: 404,
  [ErrorCode.fileNotFound]: 404,
  [ErrorCode.requestTimeout]: 408,
  [ErrorCode.idempotencyKeyInProgress]: 409,
  [ErrorCode.uploadTooLarge]: 413,
  [ErrorCode.bodyTooLarge]: 413,
  [ErrorCode.unsupportedMediaType]: 415,
  [ErrorCode.headersTooLarge]: 431,
  [ErrorCode.renderProjectInvalid]: 422,
  [ErrorCode.compositionNotFound]: 422,
  [ErrorCode.urlFetchFailed]: 422,
  [ErrorCode.compositionTooLong]: 422,
  [ErrorCode.projectFileMissing]: 422,
  [ErrorCode.timeOutsideDuration]: 422,
  [ErrorCode.rangeOutsideDuration]: 422,
  [ErrorCode.rangeNotSatisfiable]: 416,
  [ErrorCode.idempotencyKeyReused]: 422,
  [ErrorCode.assetEntryMissing]: 422,
  [ErrorCode.internalError]: 500,
};

/** The HTTP status of an error code (400 unless listed). */
export function statusOf(code: ErrorCode): number {
  return STATUS[code] ?? STATUS_BY_PREFIX.find(([pattern]) => pattern.test(code))?.[1] ?? 400;
}

/** Warnings a submit adds to the render's own (the variables' warnings come from the runtime). */
export const RenderWarningCode = {
  /** A GIF estimated above 10 MB (`GIF_LARGE_BYTES`, src/service/renders/output-plan.ts): mail clients clip or refuse larger mails. */
  gifLarge: 'gif_large',
} as const;

/** Why a render failed, besides the renderer's own error codes. */
export const FailureCode = {
  interrupted: 'render_interrupted',
  failed: 'render_failed',
} as const;

export const RenderStatus = {
  queued: 'queued',
  rendering: 'rendering',
  completed: 'completed',
  failed: 'failed',
} as const;
export type RenderStatus = (typeof RenderStatus)[keyof typeof RenderStatus];
/** States a render never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<RenderStatus> = new Set([RenderStatus.completed, RenderStatus.failed]);

/** `progress.stage`: `queued` before the job starts, then what the renderer reports. */
export const RenderStage = {
  queued: 'queued',
  compiling: 'compiling',
  loading: 'loading',
  capturing: 'capturing',
  encoding: 'encoding',
  muxing: 'muxing',
  done: 'done',
} as const;
export type RenderStage = (typeof RenderStage)[keyof typeof RenderStage];
/** The stages in the order a render goes through them. */
export const RENDER_STAGES = [
  RenderStage.queued,
  RenderStage.compiling,
  RenderStage.loading,
  RenderStage.capturing,
  RenderStage.encoding,
  RenderStage.muxing,
  RenderStage.done,
] as const;

export const WebhookEventType = {
  completed: 'render.completed',
  failed: 'render.failed',
} as const;
export type WebhookEventType = (typeof WebhookEventType)[keyof typeof WebhookEventType];

export const Header = {
  authorization: 'authorization',
  wwwAuthenticate: 'WWW-Authenticate',
  idempotencyKey: 'idempotency-key',
  idempotentReplayed: 'Idempotent-Replayed',
  /** On 429 and 503 (from the service or a gateway in front of it): seconds, or an HTTP date, to wait. */
  retryAfter: 'retry-after',
  contentType: 'content-type',
  contentLength: 'content-length',
  range: 'range',
  ifRange: 'if-range',
  contentRange: 'content-range',
  acceptRanges: 'accept-ranges',
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
  /** A request's id: taken from the request when well-formed, else made; always in the answer and its log line. */
  requestId: 'x-request-id',
} as const;

/** Prefixes of identifiers and secrets; clients treat the rest as opaque. */
export const IdPrefix = {
  asset: 'ast_',
  render: 'rnd_',
  apiKey: 'key_',
  account: 'acct_',
  webhookMessage: 'msg_',
} as const;
export const API_KEY_PREFIX = 'fx_live_';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Paths; `:render_id` is a path parameter. Signed file links are `${Route.files}/renders/{render_id}/{file}`. */
export const Route = {
  assets: '/v3/assets',
  renders: '/v3/renders',
  render: '/v3/renders/:render_id',
  files: '/v3/files',
  account: '/v3/account',
  /** The process serves (liveness): no dependency is asked. */
  healthz: '/healthz',
  /** The process can do its work: each dependency it uses answered (503 naming the checks otherwise). */
  readyz: '/readyz',
  /** Prometheus text of the process's series (`FX_SERVICE_METRICS`, optionally behind a bearer token). */
  metrics: '/metrics',
} as const;

export const ZIP_CONTENT_TYPE = 'application/zip';
export const JSON_CONTENT_TYPE = 'application/json';
export const DEFAULT_COMPOSITION = 'index.html';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_:.-]{1,255}$/;

/** `GET /v3/renders?limit=`: the page size when none is asked for, and the largest. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
