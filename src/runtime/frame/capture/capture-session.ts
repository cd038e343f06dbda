/**
 * The frame as an exporter of itself: `capture-start` chooses and checks a rasteriser, each `capture` seeks with
 * the renderer's clock (src/render/frame-calls.ts `seekTo`: `seek(t)`, then `mediaSeeked()`) and rasterises that
 * state. One message at a time, in order: the host keeps a few captures in flight, and each must show its own time.
 */
import { CaptureFailureCode, CaptureRasteriser, CaptureRefusalCode, type CaptureRefusal } from '../../capture-codes.js';
import { Message, type CaptureStartMessage, type SendToHost } from '../../protocol/messages.js';
import { audioClips } from '../audio-clips.js';
import type { Player } from '../player.js';
import { compositionRoot } from '../roots.js';
import { captureRefusals } from './capture-check.js';
import { FrameEncoder } from './frame-encoder.js';
import { playVideosFromResources } from './video-sources.js';
import { ForeignObjectRasteriser } from './foreign-object.js';
import { HtmlInCanvasRasteriser, htmlInCanvasAvailable } from './html-in-canvas.js';
import type { CaptureTarget, Rasteriser } from './rasteriser.js';
import { CaptureResources } from './resources.js';

export class CaptureSession {
  #queue: Promise<void> = Promise.resolve();
  #rasteriser: Rasteriser | undefined;
  /** Encodes the pictures here when the host asked for it and this frame's encoder takes its configuration. */
  #encoder: FrameEncoder | undefined;
  /** Grid frames per second of the encoding: a capture's time is the grid index ÷ fps. */
  #fps = 0;

  constructor(
    private readonly player: Player,
    private readonly size: { readonly width: number; readonly height: number },
    private readonly send: SendToHost,
  ) {}

  start(message: CaptureStartMessage): void {
    this.#enqueue(async () => {
      await this.player.ready;
      this.player.pause();
      this.#rasteriser?.dispose();
      this.#rasteriser = undefined;
      this.#encoder?.close();
      this.#encoder = undefined;
      // The sound as the renderer mixes it, listed before videos play from blob: URLs (the host knows the files by
      // their project URLs): the host mixes the same clips (src/export/audio-mix.ts).
      const audio = audioClips((element) => this.player.timeline?.windowOf(element));
      const { rasteriser, refusals } = await this.#choose(message);
      this.#rasteriser = rasteriser;
      const { encode } = message;
      if (rasteriser && encode) {
        this.#encoder = await FrameEncoder.open(encode, message, this.send);
        this.#fps = encode.fps;
      }
      this.send({
        type: Message.captureStarted,
        id: message.id,
        rasteriser: rasteriser?.name ?? null,
        refusals,
        audio,
        encoding: this.#encoder !== undefined,
      });
    });
  }

  capture(id: number, time: number): void {
    this.#enqueue(async () => {
      const rasteriser = this.#rasteriser;
      if (!rasteriser)
        return this.#failed(
          id,
          CaptureFailureCode.notStarted,
          'capture before a capture-start that chose a rasteriser',
        );
      try {
        const landed = await this.player.seek(time);
        await this.player.mediaSeeked();
        const picture = await rasteriser.capture();
        if (!this.#encoder)
          return this.send({ type: Message.captured, id, time: landed, pixels: new Blob([picture.data]) });
        try {
          await this.#encoder.encode(picture, Math.round(time * this.#fps));
        } catch (error) {
          return this.#failed(id, CaptureFailureCode.encodeFailed, `encoder: ${messageOf(error)}`);
        }
        this.send({ type: Message.captureEncoded, id, time: landed });
      } catch (error) {
        this.#failed(id, CaptureFailureCode.rasterFailed, `${rasteriser.name}: ${messageOf(error)}`);
      }
    });
  }

  /** Sends what the encoder still holds, then `capture-flushed`. */
  flush(id: number): void {
    this.#enqueue(async () => {
      const encoder = this.#encoder;
      if (!encoder)
        return this.#failed(id, CaptureFailureCode.notStarted, 'capture-flush before a capture-start that encodes');
      try {
        await encoder.flush();
        this.send({ type: Message.captureFlushed, id });
      } catch (error) {
        this.#failed(id, CaptureFailureCode.encodeFailed, `encoder: ${messageOf(error)}`);
      }
    });
  }

  #failed(id: number, code: CaptureFailureCode, message: string): void {
    this.send({ type: Message.captureFailed, id, code, message });
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch(() => undefined);
  }

  /** The rasteriser asked for, or for `auto` HTML-in-Canvas where it is and may, else foreignObject. */
  async #choose(
    message: CaptureStartMessage,
  ): Promise<{ rasteriser: Rasteriser | undefined; refusals: CaptureRefusal[] }> {
    const root = compositionRoot();
    const resources = new CaptureResources(message.resources);
    if (!(root instanceof HTMLElement)) {
      const refusal = { code: CaptureRefusalCode.rasteriserUnavailable, message: 'no composition root', where: '' };
      return { rasteriser: undefined, refusals: [refusal] };
    }
    await playVideosFromResources(root, resources);
    const target: CaptureTarget = {
      root,
      size: this.size,
      output: { width: message.width, height: message.height },
      transparent: message.transparent,
    };
    const asked = message.rasteriser;
    let refusals: CaptureRefusal[] = [];
    if (asked !== CaptureRasteriser.foreignObject) {
      if (!htmlInCanvasAvailable()) {
        refusals = [
          {
            code: CaptureRefusalCode.rasteriserUnavailable,
            message:
              'this browser has no HTML-in-Canvas (drawElementImage); Chromium has it behind --enable-blink-features=CanvasDrawElement',
            where: '',
          },
        ];
      } else {
        refusals = captureRefusals(CaptureRasteriser.htmlInCanvas, root, resources);
        if (!refusals.length) {
          const started = await HtmlInCanvasRasteriser.start(target, resources);
          if (!Array.isArray(started)) return { rasteriser: started, refusals: [] };
          refusals = started;
        }
      }
      if (asked === CaptureRasteriser.htmlInCanvas) return { rasteriser: undefined, refusals };
    }
    refusals = captureRefusals(CaptureRasteriser.foreignObject, root, resources);
    if (refusals.length) return { rasteriser: undefined, refusals };
    return { rasteriser: await ForeignObjectRasteriser.start(target, resources), refusals: [] };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
