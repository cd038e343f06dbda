/**
 * The submit fields `cloudRender`'s options set, as the wire spells them, checked as the service checks them —
 * before anything is read, zipped or sent — and, once the entry's declared duration is known, the frames they ask
 * for (src/wire/frames.ts: the service's and the renderer's one rule).
 */
import { outputFrames } from '../wire/frames.js';
import {
  checkRenderRequest,
  DEFAULT_VARIABLES_LIMITS,
  defaultFps,
  RenderDefaults,
  type AspectRatio,
  type RenderFormat,
  type RenderRequest,
  type TimeRange,
} from '../wire/render-request.js';
import { checkCallbackUrl } from './callback-url.js';
import { refused } from './errors.js';

/** The options of one render that become submit fields. */
export interface RenderSettingsOptions {
  /** 1–240, default 30 (a GIF: at most 30, default 15). */
  readonly fps?: number;
  readonly quality?: RenderRequest['quality'];
  /** `mp4` (default), `webm`, `mov` (videos), `gif`, or a still: `png`, `jpeg`, `webp`. */
  readonly format?: RenderFormat;
  readonly resolution?: RenderRequest['resolution'];
  /** Default: the one nearest the entry's `data-width`/`data-height`; `16:9` for an asset or URL. */
  readonly aspectRatio?: AspectRatio;
  /** Warnings (an undeclared id, a value out of range) refuse the render too, before any request. */
  readonly strictVariables?: boolean;
  /**
   * Render even when the entry names files the project lacks: they show as missing (a broken image, no font).
   * Without it, such a project is refused with `project_file_missing` before anything is zipped or sent.
   */
  readonly allowMissingFiles?: boolean;
  /** An https URL the service calls when the render ends (see openapi.yaml, `render.terminated`). */
  readonly callbackUrl?: string;
  readonly callbackId?: string;
  /** A still's frame, in seconds into the composition (default: its middle). Stills only. */
  readonly time?: number;
  /** The thumbnail's frame, in seconds into the composition (default: 1 s into the output). Videos and GIF. */
  readonly thumbnailTime?: number;
  /** Render only `[start, end)` of the timeline, in seconds. Videos and GIF. */
  readonly range?: TimeRange;
  /** A GIF plays forever (default) or, with `false`, once. GIF only. */
  readonly loop?: boolean;
  /**
   * Yours, stored with the render and echoed in its webhook (at most 4 KiB as JSON, 4 levels deep). In a batch, its
   * string values may name row values: `"{id}"` (see `fillMetadata`).
   */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Check everything and answer what would be rendered (a `DryRun`): no render, no credits. */
  readonly dryRun?: boolean;
}

/** The submit fields the options set, checked as the service checks them (formats, fps, 4k, metadata…). */
export function renderSettings(
  options: RenderSettingsOptions & { readonly variables?: Readonly<Record<string, unknown>> },
): RenderRequest {
  const fields: RenderRequest = {
    fps: options.fps,
    quality: options.quality,
    format: options.format,
    resolution: options.resolution,
    aspect_ratio: options.aspectRatio,
    strict_variables: options.strictVariables,
    allow_missing_files: options.allowMissingFiles,
    callback_url: options.callbackUrl === undefined ? undefined : checkCallbackUrl(options.callbackUrl),
    callback_id: options.callbackId,
    time: options.time,
    thumbnail_time: options.thumbnailTime,
    range: options.range === undefined ? undefined : { ...options.range },
    loop: options.loop,
    metadata: options.metadata === undefined ? undefined : (options.metadata as Record<string, unknown>),
    dry_run: options.dryRun,
  };
  const settings = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as RenderRequest;
  // The source is not known yet; a stand-in lets the one check see every other field.
  checkRequest({ ...settings, asset_id: 'pending', variables: { ...options.variables } });
  return settings;
}

/** The service's check of a whole body (with a stand-in source): its refusal, with its code, thrown. */
export function checkRequest(request: RenderRequest): void {
  const checked = checkRenderRequest(request, DEFAULT_VARIABLES_LIMITS);
  if ('problem' in checked) throw refused(checked.problem.code, checked.problem.message, checked.problem.param);
}

/** The frame rate the render will have: the one asked for, else the format's default. */
export const fpsOf = (settings: RenderRequest): number =>
  settings.fps ?? defaultFps(settings.format ?? RenderDefaults.format);

/**
 * The frames the settings ask of a composition of `duration` seconds (its root `data-duration`), refused as the
 * service would: `time_outside_duration` (a still's `time` or `thumbnail_time` past what is rendered),
 * `range_outside_duration`.
 */
export function checkFrames(duration: number, settings: RenderRequest): void {
  const found = outputFrames(duration, fpsOf(settings), {
    format: settings.format ?? RenderDefaults.format,
    time: settings.time,
    thumbnail_time: settings.thumbnail_time,
    range: settings.range,
  });
  if ('problem' in found) {
    const { code, message, param } = found.problem;
    throw refused(code, `${message}; nothing sent`, param);
  }
}

/** What each format's file is, for the downloaded Blob's `type`. */
export const OUTPUT_MEDIA_TYPES: Readonly<Record<RenderFormat, string>> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  gif: 'image/gif',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};
