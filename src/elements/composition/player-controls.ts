import { nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { Issue } from '../../runtime/issues.js';
import { ControlsAutohide } from './controls-autohide.js';
import { renderControls } from './controls.js';
import { Fullscreen } from './fullscreen.js';
import { KeyboardShortcuts } from './keyboard-shortcuts.js';

/** The element as its controls drive it: its public API (so this file needs nothing of fx-composition.ts). */
export interface ControlsHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly controls: boolean;
  readonly paused: boolean;
  readonly duration: number;
  muted: boolean;
  volume: number;
  playbackRate: number;
  play(): Promise<void>;
  pause(): void;
}

/** What the controls show that only the element knows (its public API says the rest). */
export interface ControlsView {
  /** The playhead shown. */
  readonly time: number;
  /** Where a relative seek (j/l, arrows) starts: where a pending seek lands, else the playhead. */
  readonly seekFrom: number;
  readonly fps: number;
  readonly issues: readonly Issue[];
  readonly errors: readonly string[];
}

/**
 * The built-in controls with what comes with them: auto-hide, fullscreen and the player keys. They drive the
 * element through its public API, as any other controls would; only `seek` is the element's quiet one (a failed
 * load is an `error` event already).
 */
export class PlayerControls implements ReactiveController {
  #fullscreen: Fullscreen;
  #autohide: ControlsAutohide;

  constructor(
    private readonly host: ControlsHost,
    private readonly view: () => ControlsView,
    private readonly seek: (seconds: number) => void,
  ) {
    host.addController(this);
    this.#fullscreen = new Fullscreen(host);
    this.#autohide = new ControlsAutohide(host, () => host.renderRoot.querySelector('.controls'));
    new KeyboardShortcuts(host, {
      togglePlay: () => this.#togglePlay(),
      seekBy: (seconds) => seek(this.view().seekFrom + seconds),
      seekTo: (where) => seek(where === 'start' ? 0 : host.duration),
      toggleMute: () => (host.muted = !host.muted),
      toggleFullscreen: () => this.#fullscreen.toggle(),
    });
  }

  // Before render: showing the controls on pause lands in the same update.
  hostUpdate(): void {
    this.#autohide.playing(!this.host.paused);
  }

  #togglePlay(): void {
    if (this.host.paused) void this.host.play();
    else this.host.pause();
  }

  render(): TemplateResult | typeof nothing {
    const { host } = this;
    if (!host.controls) return nothing;
    return renderControls(
      {
        ...this.view(),
        paused: host.paused,
        muted: host.muted,
        volume: host.volume,
        playbackRate: host.playbackRate,
        duration: host.duration,
        fullscreen: this.#fullscreen.available ? this.#fullscreen.active : undefined,
        hidden: this.#autohide.hidden,
      },
      {
        togglePlay: () => this.#togglePlay(),
        toggleMute: () => (host.muted = !host.muted),
        setVolume: (volume) => (host.volume = volume),
        setPlaybackRate: (rate) => (host.playbackRate = rate),
        toggleFullscreen: () => this.#fullscreen.toggle(),
        seek: this.seek,
      },
    );
  }
}
