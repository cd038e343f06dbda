/**
 * Test tool: a compiled composition in a frame sandboxed as `<fx-composition>` sandboxes it (opaque origin,
 * `allow-scripts` only), connected over a real `MessageChannel`, with the capture messages' round trips.
 */
import type { CaptureRasteriserChoice } from '../../../../src/runtime/capture-codes.js';
import type { CaptureEncoding } from '../../../../src/runtime/capture-encoding.js';
import { compileComposition } from '../../../../src/runtime/compile/compile.js';
import { isFrameMessage } from '../../../../src/runtime/protocol/host.js';
import {
  Message,
  PROTOCOL_VERSION,
  type CaptureStartedMessage,
  type EncodedChunkMessage,
  type FrameMessage,
} from '../../../../src/runtime/protocol/messages.js';

const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
/** Compositions live here, so relative URLs reach the fixtures (`basic/pic.svg`, `project/fonts/title.ttf`). */
export const ENTRY = new URL('/test/fixtures/capture.html', location.href).href;

type Captured = Extract<FrameMessage, { type: 'captured' | 'capture-failed' }>;
type Encoded = Extract<FrameMessage, { type: 'capture-encoded' | 'capture-failed' }>;
type Flushed = Extract<FrameMessage, { type: 'capture-flushed' | 'capture-failed' }>;

const opened: CaptureFrame[] = [];
afterEach(() => opened.splice(0).forEach((frame) => frame.close()));

export class CaptureFrame {
  readonly #iframe: HTMLIFrameElement;
  readonly #port: MessagePort;
  readonly #waiting = new Map<string, (message: FrameMessage) => void>();
  #nextId = 0;
  /** The chunks of a frame that encodes, as they came. */
  readonly chunks: EncodedChunkMessage[] = [];

  private constructor(iframe: HTMLIFrameElement, port: MessagePort) {
    this.#iframe = iframe;
    this.#port = port;
    port.onmessage = (event) => {
      if (!isFrameMessage(event.data)) throw new Error(`a message off the protocol: ${JSON.stringify(event.data)}`);
      const message = event.data;
      if (message.type === Message.encodedChunk) return void this.chunks.push(message);
      // An answer by the id it answers; the rest by type.
      const key = 'id' in message ? `answer ${message.id}` : message.type;
      this.#waiting.get(key)?.(message);
      this.#waiting.delete(key);
    };
  }

  /** Compiles `html` (as if at {@link ENTRY}) and opens it at `width` × `height` CSS pixels, once ready. */
  static async open(html: string, width = 320, height = 180): Promise<CaptureFrame> {
    const compiled = await compileComposition({ html, url: ENTRY }, { runtimeUrl: RUNTIME_URL, fps: 30 });
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.style.cssText = `width:${width}px;height:${height}px;border:0;display:block`;
    const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
    iframe.srcdoc = compiled.html;
    document.body.append(iframe);
    await loaded;
    const channel = new MessageChannel();
    const frame = new CaptureFrame(iframe, channel.port1);
    opened.push(frame);
    const ready = frame.#answer(Message.ready, 20_000);
    iframe.contentWindow!.postMessage({ fx: PROTOCOL_VERSION, type: Message.connect }, '*', [channel.port2]);
    await ready;
    return frame;
  }

  #answer(key: string, ms = 15_000): Promise<FrameMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${key}" within ${ms} ms`)), ms);
      this.#waiting.set(key, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  async start(
    rasteriser: CaptureRasteriserChoice,
    width = 640,
    height = 360,
    resources: { url: string; blob: Blob }[] = [],
    transparent = false,
    encode?: CaptureEncoding,
  ): Promise<CaptureStartedMessage> {
    const id = ++this.#nextId;
    const answer = this.#answer(`answer ${id}`);
    this.#port.postMessage({
      type: Message.captureStart,
      id,
      rasteriser,
      width,
      height,
      transparent,
      resources,
      ...(encode ? { encode } : {}),
    });
    return (await answer) as CaptureStartedMessage;
  }

  /** Posts a capture at once; resolves with its answer. */
  capture(time: number): Promise<Captured> {
    return this.#capture(time) as Promise<Captured>;
  }

  /** {@link capture} in a frame started with `encode`: its answer says the frame was handed to the encoder. */
  encode(time: number): Promise<Encoded> {
    return this.#capture(time) as Promise<Encoded>;
  }

  #capture(time: number): Promise<FrameMessage> {
    const id = ++this.#nextId;
    const answer = this.#answer(`answer ${id}`);
    this.#port.postMessage({ type: Message.capture, id, time });
    return answer;
  }

  /** Asks a frame that encodes for its last chunks; resolves with its answer (the chunks came before it). */
  flush(): Promise<Flushed> {
    const id = ++this.#nextId;
    const answer = this.#answer(`answer ${id}`);
    this.#port.postMessage({ type: Message.captureFlush, id });
    return answer as Promise<Flushed>;
  }

  close(): void {
    this.#port.close();
    this.#iframe.remove();
  }
}

/** The fixture files the host would send: each by its absolute URL. */
export async function resourcesOf(...paths: string[]): Promise<{ url: string; blob: Blob }[]> {
  return Promise.all(
    paths.map(async (path) => {
      const url = new URL(path, ENTRY).href;
      return { url, blob: await (await fetch(url)).blob() };
    }),
  );
}

/** The pixels of a captured frame (RGBA bytes, `width` to a row). */
export async function pixelsOf(
  pixels: Blob,
  width: number,
): Promise<(x: number, y: number) => [number, number, number, number]> {
  const data = new Uint8Array(await pixels.arrayBuffer());
  return (x, y) => {
    const at = (Math.round(y) * width + Math.round(x)) * 4;
    return [data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!];
  };
}

/** Within `tolerance` of `expected` on each channel (rasterisers antialias and convert colours slightly). */
export function near(actual: readonly number[], expected: readonly number[], tolerance = 6): boolean {
  return expected.every((value, index) => Math.abs(actual[index]! - value) <= tolerance);
}

/** Whether this browser has HTML-in-Canvas (the flagged Chromium run, web-test-runner.canvas-draw.config.mjs). */
export const htmlInCanvasHere = () =>
  'drawElementImage' in CanvasRenderingContext2D.prototype && 'requestPaint' in HTMLCanvasElement.prototype;
