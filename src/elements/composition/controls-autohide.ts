import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How long the controls stay after the last pointer or keyboard activity while playing. */
export const AUTOHIDE_MS = 2000;
/** What counts as activity. `focusout` too: once focus leaves the controls, the countdown starts again. */
const ACTIVITY = ['pointermove', 'pointerdown', 'keydown', 'focusin', 'focusout'] as const;

/**
 * Hides the built-in controls while playing, {@link AUTOHIDE_MS} after the last pointer move or key press over
 * the element. They come back on any activity and stay while paused, while focus is inside them, and while the
 * pointer rests on them.
 */
export class ControlsAutohide implements ReactiveController {
  #hidden = false;
  #playing = false;
  #timer = 0;
  #pointerOnControls = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly controls: () => Element | null | undefined,
  ) {
    host.addController(this);
  }

  get hidden(): boolean {
    return this.#hidden;
  }

  hostConnected(): void {
    for (const type of ACTIVITY) this.host.addEventListener(type, this.#onActivity);
    this.host.addEventListener('pointerover', this.#onPointerOver);
    this.host.addEventListener('pointerleave', this.#onPointerLeave);
  }

  hostDisconnected(): void {
    for (const type of ACTIVITY) this.host.removeEventListener(type, this.#onActivity);
    this.host.removeEventListener('pointerover', this.#onPointerOver);
    this.host.removeEventListener('pointerleave', this.#onPointerLeave);
    this.#show();
  }

  /** Tells whether the element plays: pausing shows the controls, playing starts the countdown. */
  playing(playing: boolean): void {
    if (playing === this.#playing) return;
    this.#playing = playing;
    if (playing) this.#restart();
    else this.#show();
  }

  #onActivity = () => {
    this.#show();
    if (this.#playing) this.#restart();
  };

  #onPointerOver = (event: PointerEvent) => {
    const controls = this.controls();
    this.#pointerOnControls = !!controls && event.composedPath().includes(controls);
  };

  #onPointerLeave = () => {
    this.#pointerOnControls = false;
  };

  #restart(): void {
    clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => this.#hide(), AUTOHIDE_MS);
  }

  #hide(): void {
    const controls = this.controls();
    const focusInside = !!controls && controls.contains(this.host.shadowRoot?.activeElement ?? null);
    if (!this.#playing || focusInside || this.#pointerOnControls) return;
    this.#hidden = true;
    this.host.requestUpdate();
  }

  #show(): void {
    clearTimeout(this.#timer);
    if (!this.#hidden) return;
    this.#hidden = false;
    this.host.requestUpdate();
  }
}
