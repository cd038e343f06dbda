/** The host's end of the protocol: what it accepts from the frame. */
import { isRecord } from './data.js';
import { isBoolean, isString, isTime, matchesShape, Message, type FrameMessage, type Shape } from './protocol-messages.js';

// Sizes and frame rates divide: zero or absurd values would scale the frame to nothing.
const isDimension = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 16384;
const isIssue = (value: unknown) =>
  isRecord(value) && isString(value.code) && isString(value.message) && (value.severity === 'error' || value.severity === 'warning') && Array.isArray(value.path);
const isIssues = (value: unknown) => Array.isArray(value) && value.every(isIssue);

const FRAME_SHAPES: Readonly<Record<FrameMessage['type'], Shape>> = {
  [Message.ready]: {
    duration: isTime,
    fps: (value) => isDimension(value) && (value as number) <= 240,
    width: isDimension,
    height: isDimension,
    declarations: (value) => Array.isArray(value) && value.every(isRecord),
    values: isRecord,
    issues: isIssues,
    readsVariablesAtLoad: isBoolean,
  },
  [Message.variables]: { values: isRecord, issues: isIssues, readsVariablesAtLoad: isBoolean },
  [Message.time]: { time: isTime, paused: isBoolean },
  [Message.seeked]: { id: Number.isSafeInteger, time: isTime },
  [Message.ended]: {},
  [Message.error]: { code: isString, message: isString },
};

export const isFrameMessage = (data: unknown): data is FrameMessage => matchesShape(FRAME_SHAPES, data);
