import { isFrameMessage } from '../../runtime/protocol/host.js';
import { addTrustedReads } from './frame-reports.js';
import {
  Message,
  PROTOCOL_VERSION,
  type CaptureStartMessage,
  type CaptureStartedMessage,
  type FrameMessage,
  type HostMessage,
  type ReadyMessage,
  type VariablesMessage,
} from '../../runtime/protocol/messages.js';

/** How long a frame may take to get ready, and to paint a seek: one that stops answering must not leave anyone waiting. */
export const READY_TIMEOUT_MS = 20_000;
const SEEK_TIMEOUT_MS = 10_000;

export interface FrameSessionEvents {
  onMessage(message: FrameMessage): void;
}

/**
 * One loaded composition document: its sandboxed iframe and the `MessagePort` it talks on. The element keeps one
 * session on stage and may prepare the next (a reload) off-stage, swapping when it is ready.
 */
export class FrameSession {
  readonly iframe: HTMLIFrameElement;
  /** The frame's `ready` message; `undefined` once disposed, or when it did not come within {@link READY_TIMEOUT_MS}. */
  readonly ready: Promise<ReadyMessage | undefined>;
  #port: MessagePort | undefined;
  /** Who waits for which answer of the frame: `ready`, or the `seeked` of one seek. */
  #replies = new Map<string, (message?: FrameMessage) => void>();
  #nextSeek = 0;
  #nextCapture = 0;
  /** `set-variables` posted and not answered yet: a `variables` message is taken only as one of those answers. */
  #variablesAsked = 0;
  /** Top-level ids this document's scripts read (bounded; see `addTrustedReads`), a reload's with its predecessor's. */
  readonly reads = new Set<string>();
  /** The document, until sent with the first change to a frame whose scripts read values at load (for reruns). */
  #compiled: string | undefined;
  #readsAtLoad = false;

  constructor(
    html: string,
    title: string,
    private readonly events: FrameSessionEvents,
  ) {
    this.ready = this.#reply(Message.ready, READY_TIMEOUT_MS) as Promise<ReadyMessage | undefined>;
    const iframe = document.createElement('iframe');
    // Scripts run, but in an opaque origin: the composition cannot reach the host's DOM, cookies or storage.
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('allow', 'autoplay');
    iframe.setAttribute('part', 'frame');
    iframe.setAttribute('tabindex', '-1');
    iframe.title = title;
    iframe.addEventListener('load', () => this.#connect(), { once: true });
    iframe.srcdoc = html;
    this.iframe = iframe;
    this.#compiled = html;
  }

  #connect(): void {
    const channel = new MessageChannel();
    this.#port = channel.port1;
    channel.port1.onmessage = (event) => {
      if (isFrameMessage(event.data)) this.#receive(event.data);
    };
    // The frame's origin is opaque, so '*' is the only target; the port is all that is sent this way.
    this.iframe.contentWindow?.postMessage({ fx: PROTOCOL_VERSION, type: Message.connect }, '*', [channel.port2]);
  }

  #receive(message: FrameMessage): void {
    // Unasked `variables` messages (a composition can forge them) would otherwise start reloads at will.
    if (message.type === Message.variables) {
      if (this.#variablesAsked === 0) return;
      this.#variablesAsked--;
    }
    // Only news goes on: a frame repeating (or forging) lists it already sent changes nothing.
    if (message.type === Message.reads && !addTrustedReads(this.reads, message.ids)) return;
    if (message.type === Message.ready || message.type === Message.variables)
      this.#readsAtLoad = message.readsVariablesAtLoad;
    // Reads after `ready` are not at load: a frame whose scripts read nothing by then never reruns.
    if (message.type === Message.ready && !message.readsVariablesAtLoad) this.#compiled = undefined;
    const key = replyKey(message);
    this.#settle(key, message);
    this.events.onMessage(message);
  }

  /** The frame's answer `key`, or `undefined` once disposed or after `ms`. */
  #reply(key: string, ms: number): Promise<FrameMessage | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#settle(key), ms);
      this.#replies.set(key, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  #settle(key: string, message?: FrameMessage): void {
    const resolve = this.#replies.get(key);
    this.#replies.delete(key);
    resolve?.(message);
  }

  post(message: HostMessage): void {
    if (!this.#port) return;
    if (message.type === Message.setVariables && this.#readsAtLoad && this.#compiled !== undefined) {
      this.#port.postMessage({ ...message, compiled: this.#compiled });
      this.#compiled = undefined;
    } else this.#port.postMessage(message);
    if (message.type === Message.setVariables) this.#variablesAsked++;
  }

  /**
   * Sends `values` and resolves with the frame's answer (`undefined` once disposed or after `ms`): how a load brings
   * the frame it prepares up to values set meanwhile, before it goes on stage.
   */
  async setVariables(values: Record<string, unknown>, ms = SEEK_TIMEOUT_MS): Promise<VariablesMessage | undefined> {
    const answer = this.#reply(Message.variables, ms);
    this.post({ type: Message.setVariables, values });
    return (await answer) as VariablesMessage | undefined;
  }

  /**
   * Seeks and resolves once the frame says it painted that frame (`false` when no answer came within `ms`). Where the seek
   * lands the host works out itself (frame-reports.ts `landingTime`): the frame's own figure may be forged.
   */
  async seek(time: number, ms = SEEK_TIMEOUT_MS): Promise<boolean> {
    const id = ++this.#nextSeek;
    const seeked = this.#reply(seekKey(id), ms);
    this.post({ type: Message.seek, id, time });
    return (await seeked)?.type === Message.seeked;
  }

  /** Makes an export frame a capturer (src/export); its answer, or `undefined` after `ms`. */
  async startCapture(
    options: Omit<CaptureStartMessage, 'type' | 'id'>,
    ms: number,
  ): Promise<CaptureStartedMessage | undefined> {
    const id = ++this.#nextCapture;
    const answer = this.#reply(captureKey(id), ms);
    this.post({ type: Message.captureStart, id, ...options });
    const message = await answer;
    return message?.type === Message.captureStarted ? message : undefined;
  }

  /** One frame of an export frame: `captured`, `capture-encoded` or `capture-failed`, or `undefined` after `ms`. */
  async capture(time: number, ms: number) {
    const id = ++this.#nextCapture;
    const answer = this.#reply(captureKey(id), ms);
    this.post({ type: Message.capture, id, time });
    const message = await answer;
    return message?.type === Message.captured ||
      message?.type === Message.captureEncoded ||
      message?.type === Message.captureFailed
      ? message
      : undefined;
  }

  /** Asks an export frame that encodes for its encoder's last chunks: `capture-flushed` or `capture-failed`. */
  async flushCapture(ms: number) {
    const id = ++this.#nextCapture;
    const answer = this.#reply(captureKey(id), ms);
    this.post({ type: Message.captureFlush, id });
    const message = await answer;
    return message?.type === Message.captureFlushed || message?.type === Message.captureFailed ? message : undefined;
  }

  dispose(): void {
    this.#port?.close();
    for (const key of [...this.#replies.keys()]) this.#settle(key);
    this.iframe.remove();
  }
}

const seekKey = (id: number) => `${Message.seeked} ${id}`;
const captureKey = (id: number) => `capture ${id}`;

/** Who waits for a message: a seek's or a capture's by its id, the rest by type. */
function replyKey(message: FrameMessage): string {
  switch (message.type) {
    case Message.seeked:
      return seekKey(message.id);
    case Message.captureStarted:
    case Message.captured:
    case Message.captureEncoded:
    case Message.captureFlushed:
    case Message.captureFailed:
      return captureKey(message.id);
    default:
      return message.type;
  }
}
