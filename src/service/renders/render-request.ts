import type { AspectRatio } from '../../render/types.js';
import { describe } from '../../runtime/issues.js';
import { checkRelativePath } from '../assets/zip-names.js';
import { DEFAULT_COMPOSITION, ErrorCode } from '../../wire/constants.js';
import { checkRenderRequest, defaultFps, RENDER_REQUEST_FIELDS, RenderDefaults } from '../../wire/render-request.js';
import { ServiceError } from '../errors.js';
import { isLoopbackHost } from '../network-guard.js';
import type { RenderRequest } from './render-types.js';

const HTTP_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

export interface RequestPolicy {
  readonly variablesBytes: number;
  readonly variablesDepth: number;
  readonly allowInsecureCallbacks: boolean;
}

/**
 * What the body says: the aspect ratio may be left to detection, and the page URL is known only after fetching.
 * `dry_run` is how to answer, not what to render: it is not stored.
 */
export type ParsedRenderRequest = Omit<RenderRequest, 'aspect_ratio' | 'page_url'> & {
  readonly aspect_ratio: AspectRatio | null;
  readonly dry_run: boolean;
};

const invalid = (param: string, message: string) => new ServiceError(ErrorCode.parameterInvalid, message, { param });

/**
 * Validates a submit body (already JSON-parsed) field by field, in a fixed order (src/wire/render-request.ts), and
 * fills in defaults. Every refusal of a field names it in `param`.
 */
export function parseRenderRequest(body: unknown, policy: RequestPolicy): ParsedRenderRequest {
  const checked = checkRenderRequest(body, policy);
  if ('problem' in checked)
    throw new ServiceError(checked.problem.code, checked.problem.message, { param: checked.problem.param });
  const parsed = checked.fields;
  const variables = parsed.variables ?? {};
  const format = parsed.format ?? RenderDefaults.format;
  return {
    asset_id: parsed.asset_id ?? null,
    url: parsed.url === undefined ? null : checkPageUrl(parsed.url),
    composition: parsed.composition === undefined ? DEFAULT_COMPOSITION : checkComposition(parsed.composition),
    fps: parsed.fps ?? defaultFps(format),
    quality: parsed.quality ?? RenderDefaults.quality,
    format,
    resolution: parsed.resolution ?? RenderDefaults.resolution,
    aspect_ratio: parsed.aspect_ratio ?? null,
    variables,
    strict_variables: parsed.strict_variables ?? false,
    allow_missing_files: parsed.allow_missing_files ?? false,
    callback_url:
      parsed.callback_url === undefined ? null : checkCallbackUrl(parsed.callback_url, policy.allowInsecureCallbacks),
    callback_id: parsed.callback_id ?? null,
    time: parsed.time ?? null,
    thumbnail_time: parsed.thumbnail_time ?? null,
    range: parsed.range ?? null,
    // The wire refuses `loop` for other formats (parameter_conflict): theirs stays null.
    loop: format === 'gif' ? (parsed.loop ?? RenderDefaults.loop) : null,
    metadata: parsed.metadata ?? null,
    dry_run: parsed.dry_run ?? false,
  };
}

function parseUrl(value: string, param: string, expected: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(param, `"${param}" must be ${expected}, got ${describe(value)}`);
  }
  if (url.username || url.password)
    throw invalid(param, `"${param}" must not carry credentials, got ${describe(value)}`);
  return url;
}

/** Checked after parsing: the protocol of the parsed URL, and the string returned is the one validated. */
function checkPageUrl(value: string): string {
  const url = parseUrl(value, 'url', RENDER_REQUEST_FIELDS.url.expected);
  if (!HTTP_PROTOCOLS.has(url.protocol))
    throw invalid('url', `"url" must be ${RENDER_REQUEST_FIELDS.url.expected}, got protocol "${url.protocol}"`);
  return url.href;
}

function checkCallbackUrl(value: string, allowInsecure: boolean): string {
  const url = parseUrl(value, 'callback_url', RENDER_REQUEST_FIELDS.callback_url.expected);
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:') {
    if (allowInsecure && isLoopbackHost(url.hostname)) return url.href;
    throw new ServiceError(ErrorCode.callbackUrlInsecure, `"callback_url" must use https:, got ${describe(value)}`, {
      param: 'callback_url',
    });
  }
  throw invalid(
    'callback_url',
    `"callback_url" must be ${RENDER_REQUEST_FIELDS.callback_url.expected}, got protocol "${url.protocol}"`,
  );
}

function checkComposition(value: string): string {
  try {
    return checkRelativePath(value, '"composition"');
  } catch (error) {
    throw invalid('composition', (error as Error).message);
  }
}
