/** The host's end of the protocol: what it accepts from the frame. */
import { CAPTURE_RASTERISERS } from '../capture-codes.js';
import { ENCODED_CHUNK_LIMITS } from '../capture-encoding.js';
import { isRecord } from '../data.js';
import { isBoolean, isString, isTime, matchesShape, Message, type FrameMessage, type Shape } from './messages.js';

/**
 * Lists from the frame are read up to this many items. A frame can send a sparse array of length 2^28 (cheap to
 * clone, seconds to walk), so no list is walked past it; longer lists are cut by the reader (the element keeps the
 * first items), not refused, so a composition with many problems still plays.
 */
export const MAX_LIST_ITEMS = 1000;

/** An array whose first {@link MAX_LIST_ITEMS} items pass `check` (holes are skipped). */
const isListOf = (check: (item: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.slice(0, MAX_LIST_ITEMS).every(check);

// Sizes and frame rates divide: zero or absurd values would scale the frame to nothing.
const isDimension = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 16384;
const isIssue = (value: unknown) =>
  isRecord(value) &&
  isString(value.code) &&
  isString(value.message) &&
  (value.severity === 'error' || value.severity === 'warning') &&
  Array.isArray(value.path);
const isIssues = isListOf(isIssue);
const isRefusal = (value: unknown) =>
  isRecord(value) && isString(value.code) && isString(value.message) && isString(value.where);
const isClip = (value: unknown) =>
  isRecord(value) &&
  isString(value.src) &&
  isTime(value.start) &&
  isTime(value.end) &&
  isString(value.tag) &&
  typeof value.volume === 'number' &&
  value.volume >= 0 &&
  value.volume <= 1;
const isChunkBytes = (value: unknown) =>
  value instanceof ArrayBuffer && value.byteLength > 0 && value.byteLength <= ENCODED_CHUNK_LIMITS.maxBytes;
/** What a decoder needs, bounded; its codec and size are compared with the export's own by the exporter. */
const isDecoderConfig = (value: unknown) =>
  value === undefined ||
  (isRecord(value) &&
    isString(value.codec) &&
    isDimension(value.codedWidth) &&
    isDimension(value.codedHeight) &&
    (value.description === undefined ||
      (value.description instanceof ArrayBuffer &&
        value.description.byteLength <= ENCODED_CHUNK_LIMITS.maxDescriptionBytes)) &&
    (value.colorSpace === undefined || isRecord(value.colorSpace)));
const isBlob = (value: unknown) => typeof Blob !== 'undefined' && value instanceof Blob;

const FRAME_SHAPES: Readonly<Record<FrameMessage['type'], Shape>> = {
  [Message.ready]: {
    duration: isTime,
    fps: (value) => isDimension(value) && (value as number) <= 240,
    width: isDimension,
    height: isDimension,
    declarations: isListOf(isRecord),
    values: isRecord,
    issues: isIssues,
    readsVariablesAtLoad: isBoolean,
  },
  [Message.variables]: {
    values: isRecord,
    issues: isIssues,
    readsVariablesAtLoad: isBoolean,
    ranAgain: (value) => value === undefined || isBoolean(value),
  },
  [Message.reads]: { ids: isListOf(isString) },
  [Message.time]: { time: isTime, paused: isBoolean },
  [Message.seeked]: { id: Number.isSafeInteger, time: isTime },
  [Message.ended]: {},
  [Message.error]: { code: isString, message: isString },
  [Message.captureStarted]: {
    id: Number.isSafeInteger,
    rasteriser: (value) => value === null || CAPTURE_RASTERISERS.includes(value as never),
    refusals: isListOf(isRefusal),
    audio: isListOf(isClip),
    encoding: isBoolean,
  },
  [Message.captured]: { id: Number.isSafeInteger, time: isTime, pixels: isBlob },
  [Message.captureEncoded]: { id: Number.isSafeInteger, time: isTime },
  [Message.encodedChunk]: {
    index: (value) => Number.isSafeInteger(value) && (value as number) >= 0,
    key: isBoolean,
    data: isChunkBytes,
    alpha: (value) => value === undefined || isChunkBytes(value),
    decoderConfig: isDecoderConfig,
  },
  [Message.captureFlushed]: { id: Number.isSafeInteger },
  [Message.captureFailed]: { id: Number.isSafeInteger, code: isString, message: isString },
};

/**
 * True when `data` has the shape of a frame message. A shape is not the truth: a composition can forge any
 * message, so the element still bounds what it reads (src/elements/composition/frame-reports.ts); arrays are checked only up
 * to {@link MAX_LIST_ITEMS} items, and must be read no further.
 */
export const isFrameMessage = (data: unknown): data is FrameMessage => matchesShape(FRAME_SHAPES, data);
