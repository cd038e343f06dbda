/**
 * What an export asks of an embed: a frame of its own, loaded with the export's values on the export's frame grid,
 * that captures itself (src/runtime/frame/capture). `<fx-composition>` implements it; the export never touches the
 * embed's frame on stage, so the preview plays on while an export runs.
 */
import type { CaptureRasteriserChoice } from '../runtime/capture-codes.js';
import type { CaptureEncoding } from '../runtime/capture-encoding.js';
import type {
  CaptureStartedMessage,
  EncodedChunkMessage,
  FrameMessage,
  Message,
} from '../runtime/protocol/messages.js';

/** The method's key: a symbol, so it stays off the element's public surface. */
export const OPEN_CAPTURE = Symbol.for('fx-sdk.openCapture');

export interface CaptureRequest {
  /** Overrides of the export (the embed's current values when absent). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** The frame grid the frame is compiled with: the export's fps. */
  readonly fps: number;
  readonly signal?: AbortSignal;
}

/** One captured frame (its pixels, or handed to the frame's encoder), or why not; `undefined`: no answer in time. */
export type CaptureReply =
  | Extract<
      FrameMessage,
      { type: typeof Message.captured | typeof Message.captureEncoded | typeof Message.captureFailed }
    >
  | undefined;

/** The answer to a flush, as {@link CaptureReply}. */
export type FlushReply =
  Extract<FrameMessage, { type: typeof Message.captureFlushed | typeof Message.captureFailed }> | undefined;

/** A loaded, ready export frame. */
export interface CaptureFrame {
  /** The composition's size in CSS pixels and its timing, from the host's own compile (never from the frame). */
  readonly width: number;
  readonly height: number;
  readonly duration: number;
  readonly fps: number;
  /** The project's files, each with the absolute URL the document uses. */
  readonly dependencies: readonly { readonly path: string; readonly url: string }[];
  /** Asks the frame to become a capturer; `undefined` when it did not answer in `ms`. */
  start(
    options: {
      readonly rasteriser: CaptureRasteriserChoice;
      readonly width: number;
      readonly height: number;
      readonly transparent: boolean;
      readonly resources: readonly { readonly url: string; readonly blob: Blob }[];
      readonly encode?: CaptureEncoding;
    },
    ms: number,
  ): Promise<CaptureStartedMessage | undefined>;
  /** Seeks the frame to `time` with the renderer's clock and rasterises it. */
  capture(time: number, ms: number): Promise<CaptureReply>;
  /** Where each chunk of a frame that encodes goes, as it comes (shape-checked only: hostile). */
  onChunk: ((chunk: EncodedChunkMessage) => void) | undefined;
  /** The encoder's last chunks (they come to `onChunk` before the answer). */
  flush(ms: number): Promise<FlushReply>;
  /** Removes the frame. */
  dispose(): void;
}

/** An embed that can open export frames: `<fx-composition>`. */
export interface Capturable {
  [OPEN_CAPTURE](request: CaptureRequest): Promise<CaptureFrame>;
}

export const isCapturable = (value: unknown): value is Capturable =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Capturable>)[OPEN_CAPTURE] === 'function';
