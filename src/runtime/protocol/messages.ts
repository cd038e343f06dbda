/**
 * The messages of the host ↔ frame protocol: their names, their shapes, and the checks their fields share.
 * Each end checks only what the other sends (protocol/host.ts, protocol/frame.ts), so neither bundle carries the
 * other's table.
 */
import type { CaptureRasteriser, CaptureRasteriserChoice, CaptureRefusal } from '../capture-codes.js';
import type { CaptureEncoding } from '../capture-encoding.js';
import type { AudioClip } from '../frame/contract.js';
import type { Issue } from '../issues.js';
import { isRecord } from '../data.js';

export const PROTOCOL_VERSION = 1;

/** Message types, said once. */
export const Message = {
  connect: 'fx:connect',
  // host → frame
  play: 'play',
  pause: 'pause',
  seek: 'seek',
  setVariables: 'set-variables',
  setMuted: 'set-muted',
  setLoop: 'set-loop',
  setRate: 'set-rate',
  setVolume: 'set-volume',
  captureStart: 'capture-start',
  capture: 'capture',
  captureFlush: 'capture-flush',
  // frame → host
  ready: 'ready',
  time: 'time',
  seeked: 'seeked',
  variables: 'variables',
  reads: 'reads',
  ended: 'ended',
  error: 'error',
  captureStarted: 'capture-started',
  captured: 'captured',
  captureEncoded: 'capture-encoded',
  encodedChunk: 'encoded-chunk',
  captureFlushed: 'capture-flushed',
  captureFailed: 'capture-failed',
} as const;

type Values = Record<string, unknown>;

export interface ConnectMessage {
  readonly fx: typeof PROTOCOL_VERSION;
  readonly type: typeof Message.connect;
}

export type HostMessage =
  | { readonly type: typeof Message.play }
  | { readonly type: typeof Message.pause }
  | { readonly type: typeof Message.seek; readonly id: number; readonly time: number }
  /** `compiled`: the document the frame loaded, sent once, with the first change, to a frame whose scripts read values at load (see rerun.ts). */
  | { readonly type: typeof Message.setVariables; readonly values: Values; readonly compiled?: string }
  | { readonly type: typeof Message.setMuted; readonly muted: boolean }
  | { readonly type: typeof Message.setLoop; readonly loop: boolean }
  | { readonly type: typeof Message.setRate; readonly rate: number }
  | { readonly type: typeof Message.setVolume; readonly volume: number }
  | CaptureStartMessage
  /** Seek to `time` with the renderer's clock (media seeked, fonts and images decoded) and rasterise that frame. */
  | { readonly type: typeof Message.capture; readonly id: number; readonly time: number }
  /** Sends what the frame's encoder still holds, then `capture-flushed` (frames encoded in the frame only). */
  | { readonly type: typeof Message.captureFlush; readonly id: number };

/**
 * Turns a frame into an exporter of itself (src/export): it stops playing, checks what `rasteriser` can capture and
 * answers `capture-started`; each `capture` is then answered with `captured` (or `capture-failed`). `width` ×
 * `height`: the pixels of each picture (the composition is scaled into them). `resources`: the bytes of the
 * project's files by the absolute URL the document uses, for what the frame may not read itself (its origin is
 * opaque), e.g. images inlined by the foreignObject rasteriser.
 */
export interface CaptureStartMessage {
  readonly type: typeof Message.captureStart;
  readonly id: number;
  readonly rasteriser: CaptureRasteriserChoice;
  readonly width: number;
  readonly height: number;
  /** What the composition leaves unpainted stays transparent (a format with alpha); else the preview's backdrop. */
  readonly transparent: boolean;
  readonly resources: readonly { readonly url: string; readonly blob: Blob }[];
  /**
   * Encode each picture in the frame with this (src/runtime/capture-encoding.ts): each `capture` is then answered
   * with `capture-encoded` and the chunks come as `encoded-chunk` messages. Absent: `captured` pixels.
   */
  readonly encode?: CaptureEncoding;
}

/** The answer to `capture-start`: the rasteriser chosen, or `null` with what refused every candidate. */
export interface CaptureStartedMessage {
  readonly type: typeof Message.captureStarted;
  readonly id: number;
  readonly rasteriser: CaptureRasteriser | null;
  /** Empty when `rasteriser` is set; else each thing that stopped the one asked for (or, for `auto`, the last tried). */
  readonly refusals: readonly CaptureRefusal[];
  /** The composition's sound clips (`__fx.audioClips`): what the export mixes, as the renderer does. */
  readonly audio: readonly AudioClip[];
  /** The frame encodes as `encode` asked (its `VideoEncoder` took the configuration); else it sends pixels. */
  readonly encoding: boolean;
}

/**
 * One chunk of the frame's encoder, in the encoder's output order: frame `index` of the grid (timestamp index ÷
 * fps), its bytes and, with `alpha`, its alpha plane's chunk. The first carries what a decoder needs.
 */
export interface EncodedChunkMessage {
  readonly type: typeof Message.encodedChunk;
  readonly index: number;
  readonly key: boolean;
  readonly data: ArrayBuffer;
  readonly alpha?: ArrayBuffer;
  readonly decoderConfig?: {
    readonly codec: string;
    readonly codedWidth: number;
    readonly codedHeight: number;
    readonly description?: ArrayBuffer;
    readonly colorSpace?: VideoColorSpaceInit;
  };
}

export interface ReadyMessage {
  readonly type: typeof Message.ready;
  readonly duration: number;
  readonly fps: number;
  readonly width: number;
  readonly height: number;
  readonly declarations: readonly Values[];
  readonly values: Values;
  readonly issues: readonly Issue[];
  readonly readsVariablesAtLoad: boolean;
}

export interface VariablesMessage {
  readonly type: typeof Message.variables;
  readonly values: Values;
  readonly issues: readonly Issue[];
  readonly readsVariablesAtLoad: boolean;
  /** Those scripts ran again in place with the new values (no reload needed); absent from runtimes before reruns. */
  readonly ranAgain?: boolean;
}

/** The top-level variable ids composition scripts read so far (the whole list each time; see `SCRIPT_READS`). */
export interface ReadsMessage {
  readonly type: typeof Message.reads;
  readonly ids: readonly string[];
}

/**
 * Bounds of the `reads` report: the frame sends at most one per `intervalMs` with at most `maxIds` ids of at most
 * `maxIdLength` characters, and the host keeps no more than that whatever a forged message carries.
 */
export const SCRIPT_READS = { maxIds: 200, maxIdLength: 200, intervalMs: 250 } as const;

export type FrameMessage =
  | ReadyMessage
  | VariablesMessage
  | ReadsMessage
  | { readonly type: typeof Message.time; readonly time: number; readonly paused: boolean }
  | { readonly type: typeof Message.seeked; readonly id: number; readonly time: number }
  | { readonly type: typeof Message.ended }
  | { readonly type: typeof Message.error; readonly code: string; readonly message: string }
  | CaptureStartedMessage
  /**
   * One captured frame: `pixels` holds `width` × `height` as asked, RGBA bytes (not premultiplied, rows top to
   * bottom, as `getImageData` gives them). A Blob, not a transferred ImageBitmap: where the frame runs in a process
   * of its own, receiving a 1080p bitmap cost the host's main thread ~20 ms of CPU per frame, a Blob ~1 ms (its
   * bytes are read asynchronously).
   */
  | { readonly type: typeof Message.captured; readonly id: number; readonly time: number; readonly pixels: Blob }
  /** One captured frame handed to the frame's encoder (its chunk follows as `encoded-chunk`). */
  | { readonly type: typeof Message.captureEncoded; readonly id: number; readonly time: number }
  | EncodedChunkMessage
  /** Every chunk of the frame's encoder was sent. */
  | { readonly type: typeof Message.captureFlushed; readonly id: number }
  | {
      readonly type: typeof Message.captureFailed;
      readonly id: number;
      readonly code: string;
      readonly message: string;
    };

/** How the frame sends one message to the host, moving what `transfer` lists (an encoded chunk's bytes). */
export type SendToHost = (message: FrameMessage, transfer?: Transferable[]) => void;

// Field checks, one per kind of field.
export const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
export const isBoolean = (value: unknown) => typeof value === 'boolean';
export const isString = (value: unknown) => typeof value === 'string';

/** Playback rates the element and the frame accept: the range browsers play media at (Chromium's and Firefox's). */
export const PLAYBACK_RATE = { min: 0.0625, max: 16 } as const;
export const isRate = (value: unknown) =>
  typeof value === 'number' && value >= PLAYBACK_RATE.min && value <= PLAYBACK_RATE.max;
/** A media volume: from 0 (silent) to 1 (as authored). */
export const isVolume = (value: unknown) => typeof value === 'number' && value >= 0 && value <= 1;

/** The fields a message type must carry, each with its check. */
export type Shape = Readonly<Record<string, (value: unknown) => boolean>>;

/** True when `data` is a message of one of the types in `shapes`, with every field its shape asks for. */
export function matchesShape(shapes: Readonly<Record<string, Shape>>, data: unknown): boolean {
  if (!isRecord(data) || !isString(data.type) || !Object.hasOwn(shapes, data.type)) return false;
  return Object.entries(shapes[data.type as string]!).every(([field, check]) => check(data[field]));
}
