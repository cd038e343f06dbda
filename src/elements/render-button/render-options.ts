/**
 * The button's attributes as `cloudRender` options. What an attribute's text cannot say (`range` not
 * `start:end`, `metadata` not a JSON object) is `render_button_attribute_invalid`; every value read is then
 * checked by the client as the service checks it (`parameter_invalid`, `parameter_conflict`…), before anything
 * is sent. Thrown at the click, so it reaches the page through the button's `error` event, never uncaught.
 */
import type { RenderSettingsOptions } from '../../client/render-settings.js';
import { FxError } from '../../runtime/errors.js';
import type { RenderFormat, TimeRange } from '../../wire/render-request.js';
import { FxRenderButtonAttribute, FxRenderButtonErrorCode } from './constants.js';

/** An attribute's text that is not JSON, kept so the click can report it (a converter must not throw). */
export class UnreadableAttribute {
  constructor(
    readonly text: string,
    readonly reason: string,
  ) {}
}

/** `metadata="…"`: its JSON, or what could not be read. */
export function metadataFromAttribute(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    return new UnreadableAttribute(text, (error as Error).message);
  }
}

export interface ButtonSettings {
  readonly format: RenderFormat;
  readonly quality: RenderSettingsOptions['quality'];
  readonly resolution: RenderSettingsOptions['resolution'];
  readonly fps: number | undefined;
  readonly time: number | undefined;
  readonly thumbnailTime: number | undefined;
  readonly range: string | undefined;
  readonly noLoop: boolean;
  readonly metadata: unknown;
}

const invalid = (attribute: string, message: string) =>
  new FxError(FxRenderButtonErrorCode.attributeInvalid, `"${attribute}" ${message}`);

/** The render options the attributes set (absent ones left to the service's defaults). */
export function renderOptionsOf(button: ButtonSettings): Omit<RenderSettingsOptions, 'dryRun'> {
  const range = button.range === undefined || button.range === '' ? undefined : rangeOf(button.range);
  const metadata = metadataOf(button.metadata);
  const options: Omit<RenderSettingsOptions, 'dryRun'> = {
    format: button.format,
    quality: button.quality,
    resolution: button.resolution,
    fps: button.fps,
    time: button.time,
    thumbnailTime: button.thumbnailTime,
    range,
    loop: button.noLoop ? false : undefined,
    metadata,
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/** `range="1.5:4"`: seconds from and to, as `fx render --range`. */
function rangeOf(text: string): TimeRange {
  const match = /^\s*([^:\s]+)\s*:\s*([^:\s]+)\s*$/.exec(text);
  const start = Number(match?.[1]);
  const end = Number(match?.[2]);
  if (!match || !Number.isFinite(start) || !Number.isFinite(end)) {
    throw invalid(
      FxRenderButtonAttribute.range,
      `must be "start:end" in seconds, e.g. "1.5:4", got ${JSON.stringify(text.slice(0, 60))}`,
    );
  }
  return { start, end };
}

function metadataOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof UnreadableAttribute) {
    throw invalid(FxRenderButtonAttribute.metadata, `must be a JSON object, and is not JSON: ${value.reason}`);
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : typeof value;
    throw invalid(FxRenderButtonAttribute.metadata, `must be a JSON object, got ${kind}`);
  }
  return value as Readonly<Record<string, unknown>>;
}
