/** The frame's end of the protocol: what it accepts from the host. */
import { CAPTURE_LIMITS, CAPTURE_RASTERISERS } from '../capture-codes.js';
import { isRecord } from '../data.js';
import {
  isBoolean,
  isString,
  isRate,
  isTime,
  isVolume,
  matchesShape,
  Message,
  PROTOCOL_VERSION,
  type ConnectMessage,
  type HostMessage,
  type Shape,
} from './messages.js';

const isSide = (value: unknown) =>
  Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= CAPTURE_LIMITS.maxSide;
const isResource = (value: unknown) => isRecord(value) && isString(value.url) && value.blob instanceof Blob;
const isResources = (value: unknown) =>
  Array.isArray(value) && value.length <= CAPTURE_LIMITS.maxResources && value.every(isResource);

const isEncoding = (value: unknown) =>
  value === undefined ||
  (isRecord(value) &&
    isString(value.codec) &&
    (value.codec as string).length <= 100 &&
    typeof value.bitrate === 'number' &&
    value.bitrate > 0 &&
    value.bitrate <= 1e9 &&
    typeof value.fps === 'number' &&
    value.fps > 0 &&
    value.fps <= 240 &&
    Number.isSafeInteger(value.keyFrameEvery) &&
    (value.keyFrameEvery as number) >= 1 &&
    isBoolean(value.alpha) &&
    isBoolean(value.avc));

const HOST_SHAPES: Readonly<Record<HostMessage['type'], Shape>> = {
  [Message.play]: {},
  [Message.pause]: {},
  [Message.seek]: { id: Number.isSafeInteger, time: isTime },
  [Message.setVariables]: { values: isRecord, compiled: (value) => value === undefined || isString(value) },
  [Message.setMuted]: { muted: isBoolean },
  [Message.setLoop]: { loop: isBoolean },
  [Message.setRate]: { rate: isRate },
  [Message.setVolume]: { volume: isVolume },
  [Message.captureStart]: {
    id: Number.isSafeInteger,
    rasteriser: (value) => value === 'auto' || CAPTURE_RASTERISERS.includes(value as never),
    width: isSide,
    height: isSide,
    transparent: isBoolean,
    resources: isResources,
    encode: isEncoding,
  },
  [Message.capture]: { id: Number.isSafeInteger, time: isTime },
  [Message.captureFlush]: { id: Number.isSafeInteger },
};

export const isConnectMessage = (data: unknown): data is ConnectMessage =>
  isRecord(data) && data.fx === PROTOCOL_VERSION && data.type === Message.connect;
export const isHostMessage = (data: unknown): data is HostMessage => matchesShape(HOST_SHAPES, data);
