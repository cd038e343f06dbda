import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { aspectRatio, type Stage } from './frame-reports.js';

/** Scales the composition's frame into the element's box, centred, whenever the box resizes. */
export class StageLayout implements ReactiveController {
  /** The frame on stage and the composition's size. */
  #shown: [HTMLIFrameElement, Stage] | undefined;
  #resize = new ResizeObserver(() => this.#layout());

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#resize.observe(this.host);
  }

  hostDisconnected(): void {
    this.#resize.disconnect();
  }

  /** A frame went on stage: it follows the element's box, and the element's aspect ratio follows the composition. */
  show(iframe: HTMLIFrameElement, stage: Stage): void {
    this.#shown = [iframe, stage];
    this.host.style.setProperty('--fx-aspect-ratio', aspectRatio(stage));
    this.#layout();
  }

  #layout(): void {
    if (this.#shown) this.place(...this.#shown);
  }

  /** Sizes `iframe` to the composition and scales it into the element's box, centred. */
  place(iframe: HTMLIFrameElement, { width, height }: { width: number; height: number }): void {
    const box = this.host.getBoundingClientRect();
    const scale = Math.min(box.width / width, box.height / height) || 0;
    iframe.style.width = `${width}px`;
    iframe.style.height = `${height}px`;
    iframe.style.transform = `translate(${(box.width - width * scale) / 2}px, ${(box.height - height * scale) / 2}px) scale(${scale})`;
  }
}
