import { isFrameMessage, Message, PROTOCOL_VERSION, type FrameMessage, type HostMessage, type ReadyMessage } from '../runtime/protocol.js';

export interface FrameSessionEvents {
  onMessage(message: FrameMessage): void;
}

/**
 * One loaded composition document: its sandboxed iframe and the `MessagePort` it talks on. The element keeps one
 * session on stage and may prepare the next (a reload) off-stage, swapping when it is ready.
 */
export class FrameSession {
  readonly iframe: HTMLIFrameElement;
  readonly ready: Promise<ReadyMessage>;
  #port: MessagePort | undefined;
  #seeks = new Map<number, (time: number) => void>();
  #nextSeek = 0;
  #resolveReady!: (message: ReadyMessage) => void;

  constructor(html: string, title: string, private readonly events: FrameSessionEvents) {
    this.ready = new Promise((resolve) => (this.#resolveReady = resolve));
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
    if (message.type === Message.ready) this.#resolveReady(message);
    if (message.type === Message.seeked) {
      this.#seeks.get(message.id)?.(message.time);
      this.#seeks.delete(message.id);
    }
    this.events.onMessage(message);
  }

  post(message: HostMessage): void {
    this.#port?.postMessage(message);
  }

  /** Seeks and resolves with the frame-exact time once that frame was painted. */
  seek(time: number): Promise<number> {
    const id = ++this.#nextSeek;
    return new Promise((resolve) => {
      this.#seeks.set(id, resolve);
      this.post({ type: Message.seek, id, time });
    });
  }

  dispose(): void {
    this.#port?.close();
    for (const resolve of this.#seeks.values()) resolve(Number.NaN);
    this.#seeks.clear();
    this.iframe.remove();
  }
}
