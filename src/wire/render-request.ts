/**
 * The submit body (`POST /v3/renders`, openapi.yaml `RenderRequest`): its fields, their value lists and bounds, and
 * the checks that need nothing but the body. The service runs them before it looks at the source; the client runs
 * them before it sends anything, so a bad option costs no request.
 */
import * as z from 'zod/mini';
import { ErrorCode } from './constants.js';
import { describe } from './describe.js';
import { frameIndex } from './frame-grid.js';
import { nestsDeeperThan } from './json-depth.js';
import { defineSchema } from './schema.js';

// The value lists and bounds, in a module of their own without zod (the player bundle reads them).
export * from './render-values.js';
import {
  ASPECT_RATIOS,
  FOUR_K_FORMATS,
  GIF_FPS,
  MAX_FPS,
  MAX_SECONDS,
  METADATA_LIMITS,
  MIN_FPS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RENDER_RESOLUTIONS,
  RenderDefaults,
  STILL_FORMATS,
  VIDEO_FORMATS,
  defaultFps,
  type RenderFormat,
} from './render-values.js';

const oneOf = (values: readonly string[]) => `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const seconds = () => z.number().check(z.gte(0), z.lte(MAX_SECONDS));
const SECONDS = `a number of seconds from 0 to ${MAX_SECONDS}`;

/** Each accepted field: its schema and, for messages, what it expects. Order = order of checking. */
export const RENDER_REQUEST_FIELDS = defineSchema(() => ({
  asset_id: { schema: text(1, 64), expected: 'an asset id string' },
  url: { schema: text(1, 2048), expected: 'an http: or https: URL of at most 2048 characters' },
  composition: { schema: text(1, 1024), expected: 'the relative path of an HTML file in the asset' },
  fps: { schema: z.int().check(z.gte(MIN_FPS), z.lte(MAX_FPS)), expected: `an integer from ${MIN_FPS} to ${MAX_FPS}` },
  quality: { schema: z.enum(RENDER_QUALITIES), expected: oneOf(RENDER_QUALITIES) },
  format: { schema: z.enum(RENDER_FORMATS), expected: oneOf(RENDER_FORMATS) },
  resolution: { schema: z.enum(RENDER_RESOLUTIONS), expected: oneOf(RENDER_RESOLUTIONS) },
  aspect_ratio: { schema: z.enum(ASPECT_RATIOS), expected: oneOf(ASPECT_RATIOS) },
  variables: { schema: z.record(z.string(), z.unknown()), expected: 'a JSON object of values by variable id' },
  strict_variables: { schema: z.boolean(), expected: 'true or false' },
  allow_missing_files: { schema: z.boolean(), expected: 'true or false' },
  callback_url: { schema: text(1, 2048), expected: 'an https: URL of at most 2048 characters' },
  callback_id: { schema: text(1, 255), expected: 'a string of 1 to 255 characters' },
  time: { schema: seconds(), expected: SECONDS },
  thumbnail_time: { schema: seconds(), expected: SECONDS },
  range: {
    schema: z.strictObject({ start: seconds(), end: seconds() }),
    expected: `an object { "start", "end" } of seconds from 0 to ${MAX_SECONDS}, and nothing else`,
  },
  loop: { schema: z.boolean(), expected: 'true or false' },
  metadata: { schema: z.record(z.string(), z.unknown()), expected: 'a JSON object' },
  dry_run: { schema: z.boolean(), expected: 'true or false' },
}));
/** Fields that apply to some formats only, with the formats (`parameter_conflict` for the others). */
export const FORMAT_ONLY_FIELDS: Partial<Record<RenderRequestField, readonly RenderFormat[]>> = {
  time: STILL_FORMATS,
  thumbnail_time: [...VIDEO_FORMATS, 'gif'],
  range: [...VIDEO_FORMATS, 'gif'],
  loop: ['gif'],
};
export type RenderRequestField = keyof typeof RENDER_REQUEST_FIELDS;
/** The accepted submit fields, in checking order. */
export const RENDER_OPTIONS = Object.keys(RENDER_REQUEST_FIELDS) as readonly RenderRequestField[];

/** A part of the timeline in seconds: `start` inclusive, `end` exclusive, each snapped to the nearest frame. */
export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

/** A submit body as sent: exactly one of `asset_id` and `url`; the service fills in the rest. */
export type RenderRequest = {
  -readonly [K in RenderRequestField]?: z.infer<(typeof RENDER_REQUEST_FIELDS)[K]['schema']>;
};

/** Why a body is refused: the error code the service answers with, the field at fault, and the message. */
export interface RequestProblem {
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly message: string;
}

/** Bounds on `variables`: nesting (the object itself is level 1) and size as UTF-8 JSON. */
export interface VariablesLimits {
  readonly variablesDepth?: number;
  readonly variablesBytes?: number;
}

/**
 * The service's defaults (the depth is the preview's, so what the preview takes is never refused). The client checks
 * a submit against them before it zips or sends anything: a service configured for more is still asked only within
 * them.
 */
export const DEFAULT_VARIABLES_LIMITS = { variablesDepth: 16, variablesBytes: 256 * 1024 } as const;

/** Bytes of `value` as UTF-8 JSON; undefined when JSON cannot carry it (a cycle, a BigInt). */
function jsonBytes(value: unknown): number | undefined {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return undefined;
  }
}

/**
 * Checks a submit body field by field, in the service's order: an object, no unknown field, `asset_id` or `url`
 * (not both), `composition` only with an asset, nesting of `variables` (when `variablesDepth` is given), each
 * field's type and range, the size of `variables` (when `variablesBytes` is given), then 4k with an alpha format.
 * Returns the fields, or the first problem.
 */
export function checkRenderRequest(
  body: unknown,
  limits: VariablesLimits = {},
): { fields: RenderRequest } | { problem: RequestProblem } {
  const refuse = (code: ErrorCode, message: string, param: string | null = null) => ({
    problem: { code, param, message },
  });
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refuse(ErrorCode.bodyInvalid, `the request body must be a JSON object, got ${describe(body)}`);
  const input = body as Record<string, unknown>;
  const has = (field: string) => Object.hasOwn(input, field);
  const unknown = Object.keys(input).find((key) => !Object.hasOwn(RENDER_REQUEST_FIELDS, key));
  if (unknown !== undefined)
    return refuse(ErrorCode.parameterUnknown, `${JSON.stringify(unknown)} is not a render option`, unknown);
  if (!has('asset_id') && !has('url'))
    return refuse(ErrorCode.parameterMissing, 'one of "asset_id" and "url" is required', 'asset_id');
  if (has('asset_id') && has('url'))
    return refuse(ErrorCode.parameterConflict, 'give "asset_id" or "url", not both', 'url');
  if (has('url') && has('composition')) {
    return refuse(
      ErrorCode.parameterConflict,
      '"composition" applies to an asset; a "url" render renders the page itself',
      'composition',
    );
  }
  // Before anything walks it recursively (zod's messages, JSON.stringify, the renderer).
  const depth = limits.variablesDepth;
  if (depth !== undefined && has('variables') && nestsDeeperThan(input.variables, depth)) {
    return refuse(
      ErrorCode.variablesTooDeep,
      `"variables" must nest at most ${depth} levels deep, got more`,
      'variables',
    );
  }
  if (has('metadata') && nestsDeeperThan(input.metadata, METADATA_LIMITS.depth)) {
    return refuse(
      ErrorCode.metadataTooDeep,
      `"metadata" must nest at most ${METADATA_LIMITS.depth} levels deep, got more`,
      'metadata',
    );
  }
  const fields: Record<string, unknown> = {};
  for (const field of RENDER_OPTIONS) {
    if (!has(field)) continue;
    const { schema, expected } = RENDER_REQUEST_FIELDS[field];
    const result = schema.safeParse(input[field]);
    if (!result.success)
      return refuse(ErrorCode.parameterInvalid, `"${field}" must be ${expected}, got ${describe(input[field])}`, field);
    fields[field] = result.data;
  }
  const bytes = limits.variablesBytes === undefined ? undefined : jsonBytes(fields.variables ?? {});
  if (bytes !== undefined && bytes > limits.variablesBytes!) {
    return refuse(
      ErrorCode.parameterInvalid,
      `"variables" must be at most ${limits.variablesBytes} bytes as JSON, got ${bytes}; pass media as URLs`,
      'variables',
    );
  }
  const metadataBytes = has('metadata') ? jsonBytes(fields.metadata) : undefined;
  if (metadataBytes !== undefined && metadataBytes > METADATA_LIMITS.bytes) {
    return refuse(
      ErrorCode.metadataTooLarge,
      `"metadata" must be at most ${METADATA_LIMITS.bytes} bytes as JSON, got ${metadataBytes}; keep ids in it, not content`,
      'metadata',
    );
  }
  const problem = formatProblem(fields as RenderRequest);
  return problem ? { problem } : { fields: fields as RenderRequest };
}

/**
 * What the format rules refuse in a body whose fields are each valid: a field of other formats, a GIF faster than
 * `GIF_FPS.max`, 4k in a format not rendered at 4k, a `range` that ends before it starts or holds no frame.
 */
function formatProblem(fields: RenderRequest): RequestProblem | undefined {
  const format = fields.format ?? RenderDefaults.format;
  for (const [field, formats] of Object.entries(FORMAT_ONLY_FIELDS)) {
    if (fields[field as RenderRequestField] !== undefined && !formats.includes(format)) {
      return {
        code: ErrorCode.parameterConflict,
        param: field,
        message: `"${field}" applies to "format" ${formats.map((name) => JSON.stringify(name)).join(', ')}, not "${format}"`,
      };
    }
  }
  const fps = fields.fps ?? defaultFps(format);
  if (format === 'gif' && fps > GIF_FPS.max) {
    return {
      code: ErrorCode.parameterInvalid,
      param: 'fps',
      message: `"fps" of a GIF must be at most ${GIF_FPS.max}, got ${fps}: GIF players show no more (default ${GIF_FPS.default})`,
    };
  }
  if (fields.resolution === '4k' && !FOUR_K_FORMATS.has(format)) {
    const why = format === 'gif' ? 'a 4k GIF would weigh hundreds of megabytes' : '4k is captured without alpha';
    return {
      code: ErrorCode.resolutionFormatUnsupported,
      param: 'resolution',
      message: `"resolution" "4k" needs "format" ${[...FOUR_K_FORMATS].map((name) => JSON.stringify(name)).join(' or ')}, got "${format}": ${why}; render it at 1080p`,
    };
  }
  if (fields.range && frameIndex(fields.range.end, fps) <= frameIndex(fields.range.start, fps)) {
    return {
      code: ErrorCode.parameterInvalid,
      param: 'range',
      message: `"range" must hold at least one frame at ${fps} fps, got start ${fields.range.start} s and end ${fields.range.end} s`,
    };
  }
  return undefined;
}
