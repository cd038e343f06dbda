/**
 * Shapes of the `/v3` answers (openapi.yaml `components.schemas`), as zod/mini schemas for the client to check
 * what comes back. Objects are loose: a newer service may add fields, and the client keeps them. Enums the service
 * may grow (stage, failure code, issue code) are read as strings.
 */
import * as z from 'zod/mini';
import { RENDER_STAGES, RenderStatus } from './constants.js';
import { ASPECT_RATIOS, RENDER_FORMATS, RENDER_QUALITIES, RENDER_RESOLUTIONS } from './render-request.js';
import { defineSchema } from './schema.js';

const count = defineSchema(() => z.int().check(z.gte(0)));
const time = defineSchema(() => z.string().check(z.minLength(1)));

export const issueSchema = defineSchema(() =>
  z.looseObject({
    code: z.string(),
    severity: z.enum(['error', 'warning']),
    path: z.array(z.union([z.string(), z.number()])),
    message: z.string(),
  }),
);

/** `{ error: { code, message, param, issues? } }`: every refusal. */
export const errorBodySchema = defineSchema(() =>
  z.looseObject({
    error: z.looseObject({
      code: z.string().check(z.minLength(1)),
      message: z.string(),
      param: z.optional(z.nullable(z.string())),
      issues: z.optional(z.array(issueSchema)),
    }),
  }),
);

export const assetSchema = defineSchema(() =>
  z.looseObject({
    asset_id: z.string().check(z.minLength(1)),
    composition: z.string(),
    file_count: count,
    size_bytes: count,
    created_at: time,
  }),
);

const rangeSchema = defineSchema(() => z.looseObject({ start: z.number(), end: z.number() }));

/** What a render produced (or a dry run would): `start` is where on the composition's timeline it begins. */
const outputSchema = defineSchema(() =>
  z.looseObject({
    width: count,
    height: count,
    frames: count,
    duration: z.number(),
    // A service older than ranges and stills does not send it: its outputs began at 0.
    start: z._default(z.number(), 0),
  }),
);

export const renderSchema = defineSchema(() =>
  z.looseObject({
    render_id: z.string().check(z.minLength(1)),
    status: z.enum(Object.values(RenderStatus) as [RenderStatus, ...RenderStatus[]]),
    progress: z.looseObject({
      stage: z.union([z.enum(RENDER_STAGES), z.string()]),
      frames_done: count,
      frames_total: z.nullable(count),
    }),
    created_at: time,
    started_at: z.nullable(time),
    finished_at: z.nullable(time),
    attempts: count,
    failure: z.nullable(z.looseObject({ code: z.string(), message: z.string() })),
    credits: z.nullable(z.number()),
    output: z.nullable(outputSchema),
    video_url: z.nullable(z.string()),
    thumbnail_url: z.nullable(z.string()),
    expires_at: z.nullable(time),
    // A service older than retention does not send it: its renders' files were kept.
    files_expired_at: z._default(z.nullable(time), null),
    asset_id: z.nullable(z.string()),
    url: z.nullable(z.string()),
    page_url: z.nullable(z.string()),
    composition: z.string(),
    fps: z.int(),
    quality: z.enum(RENDER_QUALITIES),
    format: z.enum(RENDER_FORMATS),
    resolution: z.enum(RENDER_RESOLUTIONS),
    aspect_ratio: z.enum(ASPECT_RATIOS),
    variables: z.record(z.string(), z.unknown()),
    strict_variables: z.boolean(),
    // A service older than the field does not send it: those renders never allowed missing files.
    allow_missing_files: z._default(z.boolean(), false),
    callback_url: z.nullable(z.string()),
    callback_id: z.nullable(z.string()),
    // A service older than stills, GIFs and ranges does not send these: its renders had none of them.
    time: z._default(z.nullable(z.number()), null),
    thumbnail_time: z._default(z.nullable(z.number()), null),
    range: z._default(z.nullable(rangeSchema), null),
    loop: z._default(z.nullable(z.boolean()), null),
    metadata: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
    warnings: z.array(issueSchema),
  }),
);

/** `POST /v3/renders` with `dry_run: true`: what would be rendered, and at what cost; nothing was created. */
export const dryRunSchema = defineSchema(() =>
  z.looseObject({
    dry_run: z.literal(true),
    format: z.enum(RENDER_FORMATS),
    fps: z.int(),
    resolution: z.enum(RENDER_RESOLUTIONS),
    aspect_ratio: z.enum(ASPECT_RATIOS),
    // Null where the duration is known only once the composition runs (taken from its timeline).
    output: z.nullable(outputSchema),
    credits: z.nullable(z.number()),
    warnings: z.array(issueSchema),
  }),
);

export const renderListSchema = defineSchema(() =>
  z.looseObject({ data: z.array(renderSchema), next_token: z.nullable(z.string().check(z.minLength(1))) }),
);

export const deletedRenderSchema = defineSchema(() =>
  z.looseObject({ render_id: z.string(), deleted: z.literal(true) }),
);

export const accountSchema = defineSchema(() =>
  z.looseObject({
    account_id: z.string(),
    name: z.string(),
    credential: z.looseObject({ id: z.string(), kind: z.union([z.enum(['api_key', 'oauth']), z.string()]) }),
    webhook_secret: z.optional(z.string()),
    usage: z.looseObject({
      period_start: time,
      period_end: time,
      credits_used: z.number(),
      renders_total: count,
      renders_completed: count,
      renders_failed: count,
    }),
  }),
);

export type WireIssue = z.infer<typeof issueSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;
export type Asset = z.infer<typeof assetSchema>;
export type Render = z.infer<typeof renderSchema>;
export type RenderList = z.infer<typeof renderListSchema>;
export type DeletedRender = z.infer<typeof deletedRenderSchema>;
export type Account = z.infer<typeof accountSchema>;
export type DryRun = z.infer<typeof dryRunSchema>;
