/**
 * The host ↔ frame protocol, versioned and schema-checked on both ends. The host hands the frame one
 * `MessagePort` (in a `connect` message posted once); every later message travels on that port, so nothing else
 * is posted to `*`. Unknown or malformed messages are ignored.
 */
import type { Issue } from './issues.js';
import { isRecord } from './data.js';

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
  // frame → host
  ready: 'ready',
  time: 'time',
  seeked: 'seeked',
  variables: 'variables',
  ended: 'ended',
  error: 'error',
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
  | { readonly type: typeof Message.setVariables; readonly values: Values }
  | { readonly type: typeof Message.setMuted; readonly muted: boolean }
  | { readonly type: typeof Message.setLoop; readonly loop: boolean };

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
}

export type FrameMessage =
  | ReadyMessage
  | VariablesMessage
  | { readonly type: typeof Message.time; readonly time: number; readonly paused: boolean }
  | { readonly type: typeof Message.seeked; readonly id: number; readonly time: number }
  | { readonly type: typeof Message.ended }
  | { readonly type: typeof Message.error; readonly code: string; readonly message: string };

// Field checks, one per kind of field.
const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
// Sizes and frame rates divide: zero or absurd values would scale the frame to nothing.
const isDimension = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 16384;
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isString = (value: unknown) => typeof value === 'string';
const isIssue = (value: unknown) =>
  isRecord(value) && isString(value.code) && isString(value.message) && (value.severity === 'error' || value.severity === 'warning') && Array.isArray(value.path);
const isIssues = (value: unknown) => Array.isArray(value) && value.every(isIssue);

type Shape = Readonly<Record<string, (value: unknown) => boolean>>;

/** Each message type and the fields it must carry. */
const HOST_SHAPES: Readonly<Record<HostMessage['type'], Shape>> = {
  [Message.play]: {},
  [Message.pause]: {},
  [Message.seek]: { id: Number.isSafeInteger, time: isTime },
  [Message.setVariables]: { values: isRecord },
  [Message.setMuted]: { muted: isBoolean },
  [Message.setLoop]: { loop: isBoolean },
};

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

function matches(shapes: Readonly<Record<string, Shape>>, data: unknown): boolean {
  if (!isRecord(data) || !isString(data.type) || !Object.hasOwn(shapes, data.type)) return false;
  return Object.entries(shapes[data.type as string]!).every(([field, check]) => check(data[field]));
}

export const isConnectMessage = (data: unknown): data is ConnectMessage =>
  isRecord(data) && data.fx === PROTOCOL_VERSION && data.type === Message.connect;
export const isHostMessage = (data: unknown): data is HostMessage => matches(HOST_SHAPES, data);
export const isFrameMessage = (data: unknown): data is FrameMessage => matches(FRAME_SHAPES, data);
