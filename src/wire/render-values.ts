/** The submit body's value lists, bounds and defaults (openapi.yaml `RenderRequest`); no zod, no I/O. */
/** Videos, with sound. */
export const VIDEO_FORMATS = ['mp4', 'webm', 'mov'] as const;
/** One frame of the composition, at `time`. */
export const STILL_FORMATS = ['png', 'jpeg', 'webp'] as const;
/** Every output: the videos, an animated GIF (no sound, its own frame-rate cap), the stills. */
export const RENDER_FORMATS = [...VIDEO_FORMATS, 'gif', ...STILL_FORMATS] as const;
export const RENDER_QUALITIES = ['draft', 'standard', 'high'] as const;
export const RENDER_RESOLUTIONS = ['1080p', '4k'] as const;
export const ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];
export type StillFormat = (typeof STILL_FORMATS)[number];
export type RenderQuality = (typeof RENDER_QUALITIES)[number];
export type RenderResolution = (typeof RENDER_RESOLUTIONS)[number];
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
/**
 * Formats that keep the alpha channel (a transparent composition stays transparent). GIF is not one: its
 * transparency is one bit per pixel, which fringes every anti-aliased edge, so a GIF is captured opaque, as mp4.
 */
export const ALPHA_FORMATS: ReadonlySet<RenderFormat> = new Set(['webm', 'mov', 'png', 'webp']);
/** Formats rendered at 4k: 4k is captured without alpha, and a 4k GIF would weigh hundreds of megabytes. */
export const FOUR_K_FORMATS: ReadonlySet<RenderFormat> = new Set(['mp4', 'jpeg']);
export const isStillFormat = (format: RenderFormat): format is StillFormat =>
  (STILL_FORMATS as readonly string[]).includes(format);
export const MIN_FPS = 1;
export const MAX_FPS = 240;
/** A GIF's frame rate: browsers and mail clients play GIF frames no faster than 50 per second, most far slower. */
export const GIF_FPS = { default: 15, max: 30 } as const;
/** Longest `time`, `thumbnail_time` or `range` end, in seconds (the renderer's own limit on a duration is lower). */
export const MAX_SECONDS = 86_400;
/** Bounds on `metadata`: nesting (the object itself is level 1) and size as UTF-8 JSON. */
export const METADATA_LIMITS = { depth: 4, bytes: 4096 } as const;
/** What the service fills in for an option left out (`aspect_ratio` is detected from the composition). */
export const RenderDefaults = {
  fps: 30,
  quality: 'standard',
  format: 'mp4',
  resolution: '1080p',
  composition: 'index.html',
  /** A GIF renders at `GIF_FPS.default` unless `fps` says otherwise. */
  gifFps: GIF_FPS.default,
  /** GIFs loop forever, as every GIF in a mail or a page is expected to. */
  loop: true,
} as const;

/** The frame rate of a render that did not ask for one. */
export const defaultFps = (format: RenderFormat): number =>
  format === 'gif' ? RenderDefaults.gifFps : RenderDefaults.fps;
