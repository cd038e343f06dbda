import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The element in fullscreen (the Fullscreen API on the element itself, so its controls come along). */
export class Fullscreen implements ReactiveController {
  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  /** False where the page may not go fullscreen (an iframe without `allow="fullscreen"`, some browsers). */
  get available(): boolean {
    return document.fullscreenEnabled;
  }

  get active(): boolean {
    return document.fullscreenElement === this.host;
  }

  hostConnected(): void {
    document.addEventListener('fullscreenchange', this.#onChange);
  }

  hostDisconnected(): void {
    document.removeEventListener('fullscreenchange', this.#onChange);
  }

  /**
   * Enters or leaves fullscreen. A refusal (no user activation, a page that forbids it) leaves things as they are:
   * the browser said why in the console, and there is nothing the element could do instead.
   */
  toggle(): void {
    const request = this.active ? document.exitFullscreen() : this.host.requestFullscreen();
    request.catch(() => undefined);
  }

  #onChange = () => this.host.requestUpdate();
}
