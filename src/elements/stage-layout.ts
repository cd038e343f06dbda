import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { aspectRatio, type Stage } from './frame-reports.js';

/** What is on stage: the frame and the composition's size. */
export interface OnStage {
  readonly iframe: HTMLIFrameElement;
  readonly stage: Stage;
}

/** Scales the composition's frame into the element's box, centred, whenever the box resizes. */
export class StageLayout implements ReactiveController {
  #resize = new ResizeObserver(() => this.layout());

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly onStage: () => OnStage | undefined,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#resize.observe(this.host);
  }

  hostDisconnected(): void {
    this.#resize.disconnect();
  }

  /** A new composition on stage: the element's aspect ratio follows it. */
  show(stage: Stage): void {
    this.host.style.setProperty('--fx-aspect-ratio', aspectRatio(stage));
    this.layout();
  }

  layout(): void {
    const on = this.onStage();
    if (on) this.place(on.iframe, on.stage);
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
