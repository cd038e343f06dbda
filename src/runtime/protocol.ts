/**
 * The host ↔ frame protocol, versioned and schema-checked on both ends. The host hands the frame one
 * `MessagePort` (in a `connect` message posted once); every later message travels on that port, so nothing else
 * is posted to `*`. Unknown or malformed messages are ignored.
 *
 * This module gathers the three parts; each end imports the ones it needs directly, so its bundle carries only the
 * checks it runs: names and shapes (protocol-messages.ts), the host's checks (protocol-host.ts), the frame's
 * checks (protocol-frame.ts).
 */
export { PROTOCOL_VERSION, Message } from './protocol-messages.js';
export type {
  ConnectMessage,
  HostMessage,
  ReadyMessage,
  VariablesMessage,
  ReadsMessage,
  FrameMessage,
} from './protocol-messages.js';
export { isFrameMessage } from './protocol-host.js';
export { isConnectMessage, isHostMessage } from './protocol-frame.js';
