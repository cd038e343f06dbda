import type { Principal } from '../auth/authenticator.js';
import { ErrorCode, IdPrefix } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { isCommitOutcomeUnknown } from '../db/errors.js';
import { ServiceError } from '../errors.js';
import { newId } from '../ids.js';
import { StorageKey } from '../storage/keys.js';
import { aspectRatioOf } from '../../wire/aspect-ratio.js';
import { checkCompositionLength, checkProject, checkProjectFiles } from './project-check.js';
import { parseRenderRequest } from './render-request.js';
import type { RenderRow } from './render-types.js';
import { fetchPage, withBaseHref } from './url-page.js';

const URL_ENTRY = 'index.html';

/** The entry HTML of the render's source, and where its project will live. */
async function loadSource(
  context: ServiceContext,
  principal: Principal,
  renderId: string,
  request: ReturnType<typeof parseRenderRequest>,
) {
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

/**
 * Validates a submit body, its source and its variables, stores the render as `queued` with its job.
 * Nothing is stored unless every check passed.
 */
export async function submitRender(context: ServiceContext, principal: Principal, body: unknown): Promise<RenderRow> {
  const parsed = parseRenderRequest(body, {
    variablesBytes: context.config.limits.variablesBytes,
    variablesDepth: context.config.limits.variablesDepth,
    allowInsecureCallbacks: context.config.allowInsecureCallbacks,
  });
  const id = newId(IdPrefix.render);
  const source = await loadSource(context, principal, id, parsed);
  const composition = parsed.url === null ? parsed.composition : URL_ENTRY;
  const { metadata, warnings } = checkProject(source.html, composition, parsed.variables, parsed.strict_variables);
  checkCompositionLength(metadata.duration, composition, parsed.fps, context.config.limits);
  // A page's files live on its own server: the renderer's compile and network rules judge those.
  if (source.pageUrl === null && !parsed.allow_missing_files)
    await checkProjectFiles(context.storage, source.projectKey, source.html, composition);
  const request = {
    ...parsed,
    page_url: source.pageUrl,
    composition,
    aspect_ratio: parsed.aspect_ratio ?? aspectRatioOf(metadata),
  };
  if (source.page !== undefined)
    await context.storage.putTree(source.projectKey, [
      { path: URL_ENTRY, content: new TextEncoder().encode(source.page) },
    ]);
  try {
    return await context.queue.submit({
      id,
      accountId: principal.accountId,
      credentialId: principal.credentialId,
      request,
      warnings,
      projectKey: source.projectKey,
      createdAt: context.config.now(),
    });
  } catch (error) {
    if (source.page !== undefined && !isCommitOutcomeUnknown(error))
      await context.storage.deletePrefix(StorageKey.render(id));
    throw error;
  }
}
