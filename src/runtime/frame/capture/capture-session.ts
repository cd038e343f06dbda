/**
 * The frame as an exporter of itself: `capture-start` chooses and checks a rasteriser, each `capture` seeks with
 * the renderer's clock (src/render/frame-calls.ts `seekTo`: `seek(t)`, then `mediaSeeked()`) and rasterises that
 * state. One message at a time, in order: the host keeps a few captures in flight, and each must show its own time.
 */
import { CaptureFailureCode, CaptureRasteriser, CaptureRefusalCode, type CaptureRefusal } from '../../capture-codes.js';
import { Message, type CaptureStartMessage, type FrameMessage } from '../../protocol/messages.js';
import { audioClips } from '../audio-clips.js';
import type { Player } from '../player.js';
import { compositionRoot } from '../roots.js';
import { captureRefusals } from './capture-check.js';
import { playVideosFromResources } from './video-sources.js';
import { ForeignObjectRasteriser } from './foreign-object.js';
import { HtmlInCanvasRasteriser, htmlInCanvasAvailable } from './html-in-canvas.js';
import type { CaptureTarget, Rasteriser } from './rasteriser.js';
import { CaptureResources } from './resources.js';

export type SendWithTransfer = (message: FrameMessage, transfer?: Transferable[]) => void;

export class CaptureSession {
  #queue: Promise<void> = Promise.resolve();
  #rasteriser: Rasteriser | undefined;

  constructor(
    private readonly player: Player,
    private readonly size: { readonly width: number; readonly height: number },
    private readonly send: SendWithTransfer,
  ) {}

  start(message: CaptureStartMessage): void {
    this.#enqueue(async () => {
      await this.player.ready;
      this.player.pause();
      this.#rasteriser?.dispose();
      this.#rasteriser = undefined;
      // The sound as the renderer mixes it, listed before videos play from blob: URLs (the host knows the files by
      // their project URLs): the host mixes the same clips (src/export/audio-mix.ts).
      const audio = audioClips((element) => this.player.timeline?.windowOf(element));
      const { rasteriser, refusals } = await this.#choose(message);
      this.#rasteriser = rasteriser;
      this.send({
        type: Message.captureStarted,
        id: message.id,
        rasteriser: rasteriser?.name ?? null,
        refusals,
        audio,
      });
    });
  }

  capture(id: number, time: number): void {
    this.#enqueue(async () => {
      const rasteriser = this.#rasteriser;
      if (!rasteriser) {
        const message = 'capture before a capture-start that chose a rasteriser';
        return this.send({ type: Message.captureFailed, id, code: CaptureFailureCode.notStarted, message });
      }
      try {
        const landed = await this.player.seek(time);
        await this.player.mediaSeeked();
        const pixels = new Blob([(await rasteriser.capture()).data]);
        this.send({ type: Message.captured, id, time: landed, pixels });
      } catch (error) {
        const message = `${rasteriser.name}: ${error instanceof Error ? error.message : String(error)}`;
        this.send({ type: Message.captureFailed, id, code: CaptureFailureCode.rasterFailed, message });
      }
    });
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
