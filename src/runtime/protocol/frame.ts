/** The frame's end of the protocol: what it accepts from the host. */
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

const HOST_SHAPES: Readonly<Record<HostMessage['type'], Shape>> = {
  [Message.play]: {},
  [Message.pause]: {},
  [Message.seek]: { id: Number.isSafeInteger, time: isTime },
  [Message.setVariables]: { values: isRecord, compiled: (value) => value === undefined || isString(value) },
  [Message.setMuted]: { muted: isBoolean },
  [Message.setLoop]: { loop: isBoolean },
  [Message.setRate]: { rate: isRate },
  [Message.setVolume]: { volume: isVolume },
};

export const isConnectMessage = (data: unknown): data is ConnectMessage =>
  isRecord(data) && data.fx === PROTOCOL_VERSION && data.type === Message.connect;
export const isHostMessage = (data: unknown): data is HostMessage => matchesShape(HOST_SHAPES, data);
