import * as z from 'zod';
import { ALPHA_FORMATS, ASPECT_RATIOS, RENDER_FORMATS, RENDER_QUALITIES, RENDER_RESOLUTIONS } from '../../render/options.js';
import type { AspectRatio } from '../../render/types.js';
import { describe } from '../../runtime/issues.js';
import { checkRelativePath } from '../assets/zip-names.js';
import { DEFAULT_COMPOSITION, ErrorCode } from '../constants.js';
import { ServiceError } from '../errors.js';
import { nestsDeeperThan } from '../http/json-depth.js';
import { isLoopbackHost } from '../network-guard.js';
import type { RenderRequest } from './render-types.js';

const HTTP_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);
const oneOf = (values: readonly string[]) => `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;

/**
 * Each accepted field: its schema and, for messages, what it expects. Order = order of checking. The value lists
 * are the renderer's (src/render/options.ts): the service accepts exactly what it can render.
 */
const FIELDS = {
  asset_id: { schema: z.string().min(1).max(64), expected: 'an asset id string' },
  url: { schema: z.string().min(1).max(2048), expected: 'an http: or https: URL of at most 2048 characters' },
  composition: { schema: z.string().min(1).max(1024), expected: 'the relative path of an HTML file in the asset' },
  fps: { schema: z.number().int().min(1).max(240), expected: 'an integer from 1 to 240' },
  quality: { schema: z.enum(RENDER_QUALITIES), expected: oneOf(RENDER_QUALITIES) },
  format: { schema: z.enum(RENDER_FORMATS), expected: oneOf(RENDER_FORMATS) },
  resolution: { schema: z.enum(RENDER_RESOLUTIONS), expected: oneOf(RENDER_RESOLUTIONS) },
  aspect_ratio: { schema: z.enum(ASPECT_RATIOS), expected: oneOf(ASPECT_RATIOS) },
  variables: { schema: z.record(z.string(), z.unknown()), expected: 'a JSON object of values by variable id' },
  strict_variables: { schema: z.boolean(), expected: 'true or false' },
  callback_url: { schema: z.string().min(1).max(2048), expected: 'an https: URL of at most 2048 characters' },
  callback_id: { schema: z.string().min(1).max(255), expected: 'a string of 1 to 255 characters' },
} as const;
type Field = keyof typeof FIELDS;
/** The accepted submit fields, in checking order. */
export const RENDER_OPTIONS = Object.keys(FIELDS) as readonly Field[];
type Parsed = { -readonly [K in Field]?: z.infer<(typeof FIELDS)[K]['schema']> };

export interface RequestPolicy {
  readonly variablesBytes: number;
  readonly variablesDepth: number;
  readonly allowInsecureCallbacks: boolean;
}

/** The submit body before the source is known: `aspect_ratio` is resolved later from the composition. */
/** What the body says: the aspect ratio may be left to detection, and the page URL is known only after fetching. */
export type ParsedRenderRequest = Omit<RenderRequest, 'aspect_ratio' | 'page_url'> & { readonly aspect_ratio: AspectRatio | null };

const invalid = (param: string, message: string) => new ServiceError(ErrorCode.parameterInvalid, message, { param });

/**
 * Validates a submit body (already JSON-parsed) field by field, in a fixed order, and fills in defaults.
 * Every refusal names the field in `param`.
 */
export function parseRenderRequest(body: unknown, policy: RequestPolicy): ParsedRenderRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError(ErrorCode.bodyInvalid, `the request body must be a JSON object, got ${describe(body)}`);
  }
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !Object.hasOwn(FIELDS, key));
  if (unknown !== undefined) {
    throw new ServiceError(ErrorCode.parameterUnknown, `${JSON.stringify(unknown)} is not a render option`, { param: unknown });
  }
  const has = (field: Field) => Object.hasOwn(input, field);
  if (!has('asset_id') && !has('url')) throw new ServiceError(ErrorCode.parameterMissing, 'one of "asset_id" and "url" is required', { param: 'asset_id' });
  if (has('asset_id') && has('url')) throw new ServiceError(ErrorCode.parameterConflict, 'give "asset_id" or "url", not both', { param: 'url' });
  if (has('url') && has('composition')) {
    throw new ServiceError(ErrorCode.parameterConflict, '"composition" applies to an asset; a "url" render renders the page itself', { param: 'composition' });
  }

  // Before anything walks it recursively (zod's messages, JSON.stringify, the renderer).
  if (has('variables') && nestsDeeperThan(input.variables, policy.variablesDepth)) {
    throw new ServiceError(ErrorCode.variablesTooDeep, `"variables" must nest at most ${policy.variablesDepth} levels deep, got more`, { param: 'variables' });
  }
  const parsed: Parsed = {};
  for (const field of Object.keys(FIELDS) as Field[]) {
    if (!has(field)) continue;
    const result = FIELDS[field].schema.safeParse(input[field]);
    if (!result.success) throw invalid(field, `"${field}" must be ${FIELDS[field].expected}, got ${describe(input[field])}`);
    (parsed as Record<string, unknown>)[field] = result.data;
  }

  const resolution = parsed.resolution ?? '1080p';
  const format = parsed.format ?? 'mp4';
  if (resolution === '4k' && ALPHA_FORMATS.has(format)) {
    throw new ServiceError(
      ErrorCode.resolutionFormatUnsupported,
      `"resolution" "4k" needs "format" "mp4", got "${format}": 4k is captured without an alpha channel; use mp4 for 4k, or render alpha at 1080p`,
      { param: 'resolution' },
    );
  }
  const variables = parsed.variables ?? {};
  const variablesBytes = Buffer.byteLength(JSON.stringify(variables));
  if (variablesBytes > policy.variablesBytes) {
    throw invalid('variables', `"variables" must be at most ${policy.variablesBytes} bytes as JSON, got ${variablesBytes}; pass media as URLs`);
  }
  return {
    asset_id: parsed.asset_id ?? null,
    url: parsed.url === undefined ? null : checkPageUrl(parsed.url),
    composition: parsed.composition === undefined ? DEFAULT_COMPOSITION : checkComposition(parsed.composition),
    fps: parsed.fps ?? 30,
    quality: parsed.quality ?? 'standard',
    format,
    resolution,
    aspect_ratio: parsed.aspect_ratio ?? null,
    variables,
    strict_variables: parsed.strict_variables ?? false,
    callback_url: parsed.callback_url === undefined ? null : checkCallbackUrl(parsed.callback_url, policy.allowInsecureCallbacks),
    callback_id: parsed.callback_id ?? null,
  };
}

function parseUrl(value: string, param: string, expected: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(param, `"${param}" must be ${expected}, got ${describe(value)}`);
  }
  if (url.username || url.password) throw invalid(param, `"${param}" must not carry credentials, got ${describe(value)}`);
  return url;
}

/** Checked after parsing: the protocol of the parsed URL, and the string returned is the one validated. */
function checkPageUrl(value: string): string {
  const url = parseUrl(value, 'url', FIELDS.url.expected);
  if (!HTTP_PROTOCOLS.has(url.protocol)) throw invalid('url', `"url" must be ${FIELDS.url.expected}, got protocol "${url.protocol}"`);
  return url.href;
}

function checkCallbackUrl(value: string, allowInsecure: boolean): string {
  const url = parseUrl(value, 'callback_url', FIELDS.callback_url.expected);
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:') {
    if (allowInsecure && isLoopbackHost(url.hostname)) return url.href;
    throw new ServiceError(ErrorCode.callbackUrlInsecure, `"callback_url" must use https:, got ${describe(value)}`, { param: 'callback_url' });
  }
  throw invalid('callback_url', `"callback_url" must be ${FIELDS.callback_url.expected}, got protocol "${url.protocol}"`);
}

function checkComposition(value: string): string {
  try {
    return checkRelativePath(value, '"composition"');
  } catch (error) {
    throw invalid('composition', (error as Error).message);
  }
}
