import type { Issue } from '../../runtime/issues.js';
import type { Principal } from '../auth/authenticator.js';
import { ErrorCode, IdPrefix } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { isCommitOutcomeUnknown } from '../db/errors.js';
import { ServiceError } from '../errors.js';
import { newId } from '../ids.js';
import { StorageKey } from '../storage/keys.js';
import { aspectRatioOf } from '../../wire/aspect-ratio.js';
import { checkCompositionLength, checkProject, checkProjectFiles } from './project-check.js';
import { planOutput, type OutputPlan } from './output-plan.js';
import { parseRenderRequest, type ParsedRenderRequest } from './render-request.js';
import type { RenderOutput, RenderRequest, RenderRow } from './render-types.js';
import { fetchPage, withBaseHref } from './url-page.js';

const URL_ENTRY = 'index.html';

/** The entry HTML of the render's source, and where its project will live. */
interface Source {
  readonly html: string;
  readonly projectKey: string;
  /** A `url` render's page with its `<base href>`, stored as its project once the render is. */
  readonly page: string | undefined;
  readonly pageUrl: string | null;
}

/**
 * Reads the source. An asset is marked used before its files are read (retention keeps them from then on), by a
 * dry run too: naming an asset is using it, and the check then reads what the render would.
 */
async function loadSource(
  context: ServiceContext,
  principal: Principal,
  renderId: string,
  request: ParsedRenderRequest,
): Promise<Source> {
  if (request.url !== null) {
    const { limits, fetch, allowPrivateNetworkUrls } = context.config;
    const page = await fetchPage(request.url, {
      fetch,
      maxBytes: limits.urlPageBytes,
      timeoutMs: limits.urlFetchTimeoutMs,
      allowPrivateNetwork: allowPrivateNetworkUrls,
    });
    return {
      html: page.html,
      projectKey: StorageKey.urlProject(renderId),
      page: withBaseHref(page.html, page.finalUrl),
      pageUrl: page.finalUrl,
    };
  }
  const asset = await context.assets.get(principal.accountId, request.asset_id!);
  if (!asset)
    throw new ServiceError(ErrorCode.assetNotFound, `no asset ${JSON.stringify(request.asset_id)}`, {
      param: 'asset_id',
    });
  // Before its files are read: from here on retention keeps them (retention-sweep.ts).
  if (!(await context.assets.markUsed(principal.accountId, asset.id, context.config.now())))
    throw new ServiceError(
      ErrorCode.assetNotFound,
      `asset ${JSON.stringify(asset.id)} has expired: its files were removed after it went unused; upload it again`,
      { param: 'asset_id' },
    );
  const bytes = await context.storage.read(`${StorageKey.asset(asset.id)}/${request.composition}`);
  if (!bytes) {
    throw new ServiceError(
      ErrorCode.compositionNotFound,
      `asset ${JSON.stringify(asset.id)} has no file ${JSON.stringify(request.composition)}`,
      { param: 'composition' },
    );
  }
  return {
    html: new TextDecoder().decode(bytes),
    projectKey: StorageKey.asset(asset.id),
    page: undefined,
    pageUrl: null,
  };
}

/** A submit that passed every check: what to store, and what it will render. */
interface CheckedSubmit {
  readonly id: string;
  readonly request: RenderRequest;
  readonly warnings: Issue[];
  readonly plan: OutputPlan;
  readonly source: Source;
}

/** Every check of a submit, in order, storing nothing: the body, the source, its values and length, its files. */
async function checkSubmit(
  context: ServiceContext,
  principal: Principal,
  parsed: ParsedRenderRequest,
): Promise<CheckedSubmit> {
  const id = newId(IdPrefix.render);
  const source = await loadSource(context, principal, id, parsed);
  const composition = parsed.url === null ? parsed.composition : URL_ENTRY;
  const { metadata, warnings } = checkProject(source.html, composition, parsed.variables, parsed.strict_variables);
  checkCompositionLength(metadata.duration, composition, parsed.fps, context.config.limits);
  const { dry_run: _, ...fields } = parsed;
  const request: RenderRequest = {
    ...fields,
    page_url: source.pageUrl,
    composition,
    aspect_ratio: parsed.aspect_ratio ?? aspectRatioOf(metadata),
  };
  const plan = planOutput(request, metadata);
  // A page's files live on its own server: the renderer's compile and network rules judge those.
  if (source.pageUrl === null && !parsed.allow_missing_files)
    await checkProjectFiles(context.storage, source.projectKey, source.html, composition);
  return { id, request, warnings: [...warnings, ...plan.warnings], plan, source };
}

/** A dry run's answer (openapi.yaml `DryRun`, src/wire/responses.ts `dryRunSchema`). */
export interface DryRun extends Pick<RenderRequest, 'format' | 'fps' | 'resolution' | 'aspect_ratio'> {
  readonly dry_run: true;
  readonly output: RenderOutput | null;
  readonly credits: number | null;
  readonly warnings: readonly Issue[];
}

/** What `POST /v3/renders` did: stored a render, or (`dry_run`) only checked one. */
export type SubmitOutcome = { readonly render: RenderRow } | { readonly dryRun: DryRun };

/**
 * Validates a submit body, its source and its variables, stores the render as `queued` with its job.
 * Nothing is stored unless every check passed. A dry run makes the same checks and answers what would be rendered
 * (openapi.yaml `DryRun`), storing nothing at all.
 */
export async function submitRender(
  context: ServiceContext,
  principal: Principal,
  body: unknown,
): Promise<SubmitOutcome> {
  const parsed = parseRenderRequest(body, {
    variablesBytes: context.config.limits.variablesBytes,
    variablesDepth: context.config.limits.variablesDepth,
    allowInsecureCallbacks: context.config.allowInsecureCallbacks,
  });
  const { id, request, warnings, plan, source } = await checkSubmit(context, principal, parsed);
  if (parsed.dry_run) return { dryRun: dryRunAnswer(request, plan, warnings) };
  if (source.page !== undefined)
    await context.storage.putTree(source.projectKey, [
      { path: URL_ENTRY, content: new TextEncoder().encode(source.page) },
    ]);
  try {
    const render = await context.queue.submit({
      id,
      accountId: principal.accountId,
      credentialId: principal.credentialId,
      request,
      warnings,
      projectKey: source.projectKey,
      createdAt: context.config.now(),
    });
    return { render };
  } catch (error) {
    if (source.page !== undefined && !isCommitOutcomeUnknown(error))
      await context.storage.deletePrefix(StorageKey.render(id));
    throw error;
  }
}

/** The `DryRun` body: the options as the render would have them, its output and cost when known, its warnings. */
function dryRunAnswer(request: RenderRequest, plan: OutputPlan, warnings: readonly Issue[]): DryRun {
  return {
    dry_run: true,
    format: request.format,
    fps: request.fps,
    resolution: request.resolution,
    aspect_ratio: request.aspect_ratio,
    output: plan.output,
    credits: plan.credits,
    warnings,
  };
}
