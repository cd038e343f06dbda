import type { VariableDeclaration } from '../runtime/declarations.js';
import { DeclarationIssueCode, type Issue } from '../runtime/issues.js';
import { isFxError } from '../runtime/errors.js';
import { extractCompositionMetadata } from '../runtime/metadata.js';
import { lengthProblem } from '../runtime/render-limits.js';
import { MetadataIssueCode } from '../runtime/root-metadata.js';
import { assertMayRender } from '../runtime/may-render.js';
import { validateVariables } from '../runtime/values.js';
import { aspectRatioOf } from '../wire/aspect-ratio.js';
import { DEFAULT_COMPOSITION, ErrorCode, FailureCode, RenderStatus } from '../wire/constants.js';
import type { RenderRequest } from '../wire/render-request.js';
import type { DryRun, Render } from '../wire/responses.js';
import { checkIdempotencyKey } from './checks.js';
import { abortedError, ClientErrorCode, FxApiError, refused } from './errors.js';
import { FxClient } from './fx-client.js';
import type { ClientOptions } from './options.js';
import { CloudRenderStage, type CloudRenderProgress } from './progress.js';
import { checkMissingFiles } from './missing-files.js';
import {
  checkFrames,
  fpsOf,
  OUTPUT_MEDIA_TYPES,
  renderSettings,
  type RenderSettingsOptions,
} from './render-settings.js';
import { fetchWithUploadProgress } from './upload-progress.js';
import { readSource, type ProjectEntry, type ProjectFile, type ProjectSource } from './zip/sources.js';
import { zipFiles } from './zip/zip-project.js';

/** A live `<fx-composition>` (or anything shaped like one): what it shows now is what gets rendered. */
export interface EmbedLike {
  readonly metadata:
    | { readonly width?: number; readonly height?: number; readonly variables: readonly VariableDeclaration[] }
    | undefined;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The files the composition uses, the entry as `index.html`, with `extraFiles` added. */
  projectFiles(options?: { extraFiles?: readonly ProjectEntry[]; signal?: AbortSignal }): Promise<ProjectEntry[]>;
}

/** What to render: a live embed, project files, an uploaded asset, or a page URL. */
export type CloudProject =
  | { readonly embed: EmbedLike; readonly extraFiles?: readonly ProjectEntry[] }
  | { readonly files: ProjectSource | readonly ProjectFile[]; readonly composition?: string }
  | { readonly assetId: string; readonly composition?: string }
  | { readonly url: string };

export interface CloudRenderOptions extends ClientOptions, Omit<RenderSettingsOptions, 'dryRun'> {
  /** A render; `true` (`CloudDryRunOptions`) asks what it would be instead. */
  readonly dryRun?: false;
  /** Overrides. Default for an embed: its current `variables`; else none (the declared defaults). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Submit, and resolve with the queued record: no polling, no download. */
  readonly noWait?: boolean;
  /** Resolve once completed without downloading the video (it stays at `render.video_url`). */
  readonly download?: boolean;
  /** Sent with both the upload and the submit, so a repeated call creates nothing new. */
  readonly idempotencyKey?: string;
  /** An https URL the service calls when the render ends (see openapi.yaml, `render.terminated`). */
  readonly callbackUrl?: string;
  readonly callbackId?: string;
  /** Between two polls, in ms. Default 10 s. */
  readonly pollInterval?: number;
  /** How long to poll, in ms, before a `timeout` error (the render goes on). Default 60 min. */
  readonly maxWait?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: CloudRenderProgress) => void;
}

export interface CloudRenderResult {
  /** The render's record: `queued` with `noWait`, else `completed`. */
  readonly render: Render;
  /** The output (a video, a GIF or a still, its `type` the format's), unless `noWait` or `download: false`. */
  readonly video?: Blob;
  /** Variable warnings found before submitting (the service records them too, in `render.warnings`). */
  readonly warnings: readonly Issue[];
}

/**
 * Upload (for files or an embed) and ask the service what the render would be (`dry_run: true`): every check of a
 * submit, no render created, no credits used; no polling, no download.
 */
export interface CloudDryRunOptions extends Omit<CloudRenderOptions, 'dryRun' | 'noWait' | 'download'> {
  readonly dryRun: true;
}

/** `dryRun: true`: what the service would render (size, frames, credits, its warnings); no render was created. */
export interface CloudDryRunResult {
  readonly dryRun: DryRun;
  /** The uploaded project's asset (a dry run still uploads it), for a render of it later; null for an asset or URL. */
  readonly assetId: string | null;
  /** Variable warnings found before submitting. */
  readonly warnings: readonly Issue[];
}

/** @internal What the project's entry says of itself (an embed's metadata, or the entry's HTML read here). */
export interface EntryMetadata {
  readonly width?: number;
  readonly height?: number;
  readonly duration?: number | undefined;
  readonly variables: readonly VariableDeclaration[];
  readonly issues?: readonly Issue[];
}

/** @internal A local project, read: its files, and what its entry declares. */
export interface LocalProject {
  readonly files: readonly ProjectFile[];
  readonly composition: string;
  readonly metadata: EntryMetadata | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The whole "render this" in one call: read the project, check its variables against its declarations, the files
 * it names (unless `allowMissingFiles`) and every option (nothing is sent when one is wrong), zip, upload, submit, wait, download — reporting each stage through
 * `onProgress`. Abort with `signal` at any stage: nothing keeps running here (a submitted render goes on at the
 * service; delete it to stop it). A failed render rejects with its failure `code`. With the entry's
 * `data-duration` known, a still's `time`, a `thumbnailTime` or a `range` outside it is refused before the upload too.
 * With `dryRun: true`, it uploads and asks the service what would be rendered instead (`CloudDryRunResult`).
 *
 * @example
 * const { video } = await cloudRender({ embed: document.querySelector('fx-composition')! }, {
 *   baseUrl: 'https://render.example.com', credentials, format: 'png', time: 2.5,
 *   onProgress: (progress) => (status.textContent = describeProgress(progress)),
 * });
 * const { dryRun } = await cloudRender({ files }, { baseUrl, credentials, format: 'gif', dryRun: true });
 */
export function cloudRender(project: CloudProject, options: CloudDryRunOptions): Promise<CloudDryRunResult>;
export function cloudRender(project: CloudProject, options: CloudRenderOptions): Promise<CloudRenderResult>;
export async function cloudRender(
  project: CloudProject,
  options: CloudRenderOptions | CloudDryRunOptions,
): Promise<CloudRenderResult | CloudDryRunResult> {
  return withAbortError(options.signal, () => runCloudRender(project, options));
}

/** @internal Runs `work`, turning whatever an abort made it throw into the client's one `aborted` error (zipping throws the signal's own reason). */
export async function withAbortError<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal?.aborted && !isFxError(error, ClientErrorCode.aborted)) throw abortedError(signal);
    throw error;
  }
}

async function runCloudRender(
  project: CloudProject,
  options: CloudRenderOptions | CloudDryRunOptions,
): Promise<CloudRenderResult | CloudDryRunResult> {
  const idempotencyKey = options.idempotencyKey === undefined ? undefined : checkIdempotencyKey(options.idempotencyKey);
  const prepared = await prepareProject(project, options, (local) => {
    const variables = options.variables ?? local?.variables ?? {};
    return [
      {
        variables,
        warnings: local?.metadata
          ? checkVariables(variables, local.metadata.variables, options.strictVariables ?? false)
          : [],
      },
    ];
  });
  const [row] = prepared.rows as [PreparedRow];
  if (options.dryRun) {
    const dryRun = await prepared.client.dryRunRender(
      { ...prepared.request, variables: { ...row.variables } },
      { idempotencyKey, signal: options.signal },
    );
    return { dryRun, assetId: prepared.request.asset_id ?? null, warnings: row.warnings };
  }
  return submitAndFinish(prepared, row, idempotencyKey, options as CloudRenderOptions, options.onProgress);
}

/** One submit's values, checked. */
export interface PreparedRow {
  readonly variables: Readonly<Record<string, unknown>>;
  readonly warnings: readonly Issue[];
  /** A batch row's `metadata`, its placeholders filled; else the options' own (in the shared request). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** @internal A project read, its values checked and its files uploaded once: what every submit of it shares. */
export interface PreparedProject {
  readonly client: FxClient;
  /** Every submit field but the variables. */
  readonly request: RenderRequest;
  readonly rows: readonly PreparedRow[];
}

/**
 * @internal Checks the options, reads the project, checks its entry (declarations, length, the files it names
 * unless `allowMissingFiles`) and the values `rows` gives for it (it throws to refuse), then zips and uploads the
 * project's files — in that order, so a refusal costs no upload.
 */
export async function prepareProject(
  project: CloudProject,
  options: CloudRenderOptions | CloudDryRunOptions,
  rows: (local: LocalProject | undefined) => readonly PreparedRow[],
): Promise<PreparedProject> {
  const client = new FxClient(options);
  // Options first: a wrong one costs no reading, zipping or request.
  const settings = renderSettings(options);
  const local = await readProject(project, options.signal);
  if (local?.metadata) checkRenderable(local.metadata, local.composition, fpsOf(settings));
  // The frames asked for, where the entry declares its length (else the service or the renderer checks them).
  if (local?.metadata?.duration) checkFrames(local.metadata.duration, settings);
  if (local && options.allowMissingFiles !== true) await checkMissingFiles(local.files, local.composition);
  const checked = rows(local);
  const aspectRatio = options.aspectRatio ?? aspectRatioOf(local?.metadata);
  const source = local
    ? { asset_id: await upload(local, options), composition: local.composition }
    : remoteSource(project as Exclude<CloudProject, { embed: unknown } | { files: unknown }>);
  return { client, request: { ...settings, ...source, aspect_ratio: aspectRatio }, rows: checked };
}

/** @internal Submits one render of a prepared project, then (unless `noWait`) waits for it and downloads it. */
export async function submitAndFinish(
  prepared: PreparedProject,
  { variables, warnings, metadata }: PreparedRow,
  idempotencyKey: string | undefined,
  options: CloudRenderOptions,
  onProgress: ((progress: CloudRenderProgress) => void) | undefined,
): Promise<CloudRenderResult> {
  const { client } = prepared;
  const { signal } = options;
  const queued = await client.createRender(
    { ...prepared.request, variables: { ...variables }, ...(metadata ? { metadata: { ...metadata } } : {}) },
    { idempotencyKey, signal },
  );
  onProgress?.({ stage: CloudRenderStage.queued });
  if (options.noWait) return { render: queued, warnings };
  const finished = await waitForCompleted(client, queued.render_id, options, onProgress);
  if (options.download === false) return { render: finished, warnings };
  const downloaded = await client.downloadRender(finished, {
    signal,
    onProgress: ({ loaded, total }) =>
      onProgress?.({ stage: CloudRenderStage.downloading, bytes: loaded, totalBytes: total }),
  });
  // Typed by the format, whatever the file's host says (a bucket may answer `application/octet-stream`).
  const type = OUTPUT_MEDIA_TYPES[downloaded.render.format];
  const video = downloaded.body.type === type ? downloaded.body : downloaded.body.slice(0, downloaded.body.size, type);
  return { render: downloaded.render, video, warnings };
}

/**
 * @internal Polls a submitted render until it ends, reporting progress; resolves with the `completed` record, and
 * rejects a `failed` one with its failure `code` (so a caller never mistakes a failed render for a finished one).
 */
export async function waitForCompleted(
  client: FxClient,
  renderId: string,
  options: Pick<CloudRenderOptions, 'pollInterval' | 'maxWait' | 'signal'>,
  onProgress: ((progress: CloudRenderProgress) => void) | undefined,
): Promise<Render> {
  const finished = await client.waitForRender(renderId, {
    pollInterval: options.pollInterval,
    maxWait: options.maxWait,
    signal: options.signal,
    onProgress: (render) => onProgress?.(renderProgress(render)),
  });
  if (finished.status === RenderStatus.failed) {
    const failure = finished.failure ?? { code: FailureCode.failed, message: 'the render failed' };
    throw new FxApiError(failure.code, `render ${finished.render_id} failed: ${failure.message}`);
  }
  return finished;
}

async function readProject(project: CloudProject, signal: AbortSignal | undefined): Promise<LocalProject | undefined> {
  if ('embed' in project) {
    const { embed } = project;
    if (!embed.metadata)
      throw refused(ErrorCode.renderProjectInvalid, 'the composition has not loaded yet: wait for its "ready" event');
    const files = await embed.projectFiles({ extraFiles: project.extraFiles, signal });
    return {
      files: await readSource(files),
      composition: DEFAULT_COMPOSITION,
      metadata: embed.metadata,
      variables: embed.variables,
    };
  }
  if (!('files' in project)) return undefined;
  const files = isFileList(project.files) ? project.files : await readSource(project.files as ProjectSource);
  const composition = project.composition ?? DEFAULT_COMPOSITION;
  const entry = files.find((file) => file.path === composition);
  // A missing entry is refused by the zip check, with the service's code.
  const metadata = entry ? extractCompositionMetadata(await textOf(entry.content)) : undefined;
  return { files, composition, metadata, variables: undefined };
}

const isFileList = (files: unknown): files is readonly ProjectFile[] =>
  Array.isArray(files) && files.every((file) => typeof file?.path === 'string' && 'content' in file);

const textOf = async (content: Blob | Uint8Array) =>
  content instanceof Blob ? content.text() : new TextDecoder().decode(content);

function remoteSource(
  project: { readonly assetId: string; readonly composition?: string } | { readonly url: string },
): RenderRequest {
  return 'url' in project
    ? { url: project.url }
    : { asset_id: project.assetId, ...(project.composition === undefined ? {} : { composition: project.composition }) };
}

const ENTRY_CODES = new Set<string>([...Object.values(DeclarationIssueCode), ...Object.values(MetadataIssueCode)]);

/**
 * The service's rules on the entry itself, here before anything is zipped or sent: declarations with errors
 * (`render_project_invalid`, every issue listed) and a length beyond the default render limits
 * (`composition_duration_too_long`).
 */
function checkRenderable(metadata: EntryMetadata, composition: string, fps: number): void {
  // The entry's own (an embed's metadata has its compile's issues too, which the service does not refuse).
  const broken = (metadata.issues ?? []).filter((found) => found.severity === 'error' && ENTRY_CODES.has(found.code));
  if (broken.length > 0) {
    throw new FxApiError(
      ErrorCode.renderProjectInvalid,
      `the composition ${JSON.stringify(composition)} cannot render, nothing sent: ${broken[0]!.message}`,
      { param: 'composition', issues: broken },
    );
  }
  const tooLong = metadata.duration && lengthProblem(JSON.stringify(composition), metadata.duration, fps);
  if (tooLong) throw new FxApiError(ErrorCode.compositionTooLong, `${tooLong}; nothing sent`, { param: 'composition' });
}

/** @internal The service's rule (`assertMayRender`), before anything is sent: errors refuse; warnings too when strict. */
export function checkVariables(
  values: Readonly<Record<string, unknown>>,
  declarations: readonly VariableDeclaration[],
  strict: boolean,
): Issue[] {
  const issues = validateVariables(values, declarations, { path: ['variables'] });
  return assertMayRender(
    issues,
    strict,
    (refusedIssues) =>
      new FxApiError(
        ErrorCode.renderProjectInvalid,
        `${refusedIssues.length} variable issue(s), nothing sent; first: ${refusedIssues[0].message}`,
        { param: refusedIssues[0].path.join('.'), issues: refusedIssues },
      ),
  );
}

async function upload(local: LocalProject, options: CloudRenderOptions | CloudDryRunOptions): Promise<string> {
  const { signal, onProgress } = options;
  const zipped = await zipFiles(local.files, {
    composition: local.composition,
    signal,
    onProgress: ({ bytes, totalBytes }) => onProgress?.({ stage: CloudRenderStage.zipping, bytes, totalBytes }),
  });
  // A retried upload sends its bytes again from 0: what is reported never goes back.
  let sent = 0;
  const uploading = (bytes: number, totalBytes: number | undefined) => {
    sent = Math.max(sent, bytes);
    onProgress?.({ stage: CloudRenderStage.uploading, bytes: sent, totalBytes });
  };
  uploading(0, zipped.zip.size);
  // An injected fetch is the caller's to instrument; progress then comes at the end only.
  const fetch = options.fetch ?? fetchWithUploadProgress((sent) => uploading(sent, zipped.zip.size));
  const asset = await new FxClient({ ...options, fetch }).uploadAsset(zipped.zip, {
    composition: local.composition,
    idempotencyKey: options.idempotencyKey,
    signal,
  });
  uploading(zipped.zip.size, zipped.zip.size);
  return asset.asset_id;
}

/** @internal A polled record as progress: queued, then frames done out of the total once the renderer knows it. */
export function renderProgress(render: Render): CloudRenderProgress {
  if (render.status === RenderStatus.queued) return { stage: CloudRenderStage.queued };
  return {
    stage: CloudRenderStage.rendering,
    framesDone: render.progress.frames_done,
    framesTotal: render.progress.frames_total ?? undefined,
  };
}
