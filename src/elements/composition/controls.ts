import { html, nothing, svg, type TemplateResult } from 'lit';
import type { Issue } from '../../runtime/issues.js';

export interface ControlsState {
  readonly paused: boolean;
  readonly muted: boolean;
  readonly volume: number;
  readonly playbackRate: number;
  /** `undefined` where fullscreen is not available (the button is left out). */
  readonly fullscreen: boolean | undefined;
  /** Auto-hidden while playing (see controls-autohide.ts). */
  readonly hidden: boolean;
  readonly time: number;
  readonly duration: number;
  readonly fps: number;
  readonly issues: readonly Issue[];
  /** Messages of the latest `error` events. */
  readonly errors: readonly string[];
}

export interface ControlsActions {
  togglePlay(): void;
  toggleMute(): void;
  setVolume(volume: number): void;
  setPlaybackRate(rate: number): void;
  toggleFullscreen(): void;
  seek(seconds: number): void;
}

/** The rates the rate button steps through. */
const CONTROL_RATES = [0.5, 1, 1.5, 2] as const;

/** The rate after `rate` on the rate button: the next larger one, after the largest the smallest. */
function nextRate(rate: number): number {
  return CONTROL_RATES.find((candidate) => candidate > rate) ?? CONTROL_RATES[0];
}

const formatRate = (rate: number) => `${rate}×`;

// Icons drawn inline: emoji depend on fonts a machine may not have.
const icon = (path: TemplateResult) =>
  html`<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor" aria-hidden="true">${path}</svg>`;
const PLAY = icon(svg`<path d="M7 4.5v15l13-7.5z" />`);
const PAUSE = icon(svg`<path d="M6 4h4v16H6zM14 4h4v16h-4z" />`);
const SPEAKER = svg`<path d="M3 9h4l5-4v14l-5-4H3z" />`;
const VOLUME = icon(
  svg`${SPEAKER}<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" />`,
);
const MUTED = icon(svg`${SPEAKER}<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" />`);
const CORNERS = (d: string) => icon(svg`<path d=${d} stroke="currentColor" stroke-width="2" fill="none" />`);
const ENTER_FULLSCREEN = CORNERS('M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5');
const EXIT_FULLSCREEN = CORNERS('M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5');

/** `m:ss` (or `h:mm:ss`) for a time in seconds. */
function formatTime(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (value: number) => String(value).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/**
 * The built-in controls: play/pause, a scrubber (a native range input, so it is a `slider` with arrow, Page and
 * Home/End keys for free) with spoken time, the time display, mute and volume, the playback rate, fullscreen, and
 * hints when variables have issues or the composition reported errors.
 */
export function renderControls(state: ControlsState, actions: ControlsActions): TemplateResult {
  const duration = Number.isFinite(state.duration) ? state.duration : 0;
  const errors = state.issues.length;
  return html`
    <div part="controls" class=${state.hidden ? 'controls hidden' : 'controls'}>
      <button
        part="play-button"
        type="button"
        aria-label=${state.paused ? 'Play' : 'Pause'}
        @click=${actions.togglePlay}
      >
        ${state.paused ? PLAY : PAUSE}
      </button>
      <input
        part="scrubber"
        type="range"
        aria-label="Seek"
        min="0"
        max=${duration}
        step=${1 / state.fps}
        .value=${String(state.time)}
        aria-valuetext=${`${formatTime(state.time)} of ${formatTime(duration)}`}
        @input=${(event: Event) => actions.seek(Number((event.target as HTMLInputElement).value))}
      />
      <span part="time" class="time">${formatTime(state.time)} / ${formatTime(duration)}</span>
      <button
        part="mute-button"
        type="button"
        aria-label=${state.muted ? 'Unmute' : 'Mute'}
        aria-pressed=${state.muted ? 'true' : 'false'}
        @click=${actions.toggleMute}
      >
        ${state.muted ? MUTED : VOLUME}
      </button>
      <input
        part="volume"
        type="range"
        aria-label="Volume"
        min="0"
        max="1"
        step="0.05"
        .value=${String(state.volume)}
        aria-valuetext=${`${Math.round(state.volume * 100)}%`}
        @input=${(event: Event) => actions.setVolume(Number((event.target as HTMLInputElement).value))}
      />
      <button
        part="rate-button"
        type="button"
        aria-label=${`Playback rate ${formatRate(state.playbackRate)}`}
        @click=${() => actions.setPlaybackRate(nextRate(state.playbackRate))}
      >
        ${formatRate(state.playbackRate)}
      </button>
      ${
        state.fullscreen === undefined
          ? nothing
          : html`<button
              part="fullscreen-button"
              type="button"
              aria-label=${state.fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
              @click=${actions.toggleFullscreen}
            >
              ${state.fullscreen ? EXIT_FULLSCREEN : ENTER_FULLSCREEN}
            </button>`
      }
      ${
        errors > 0
          ? html`<span
              part="issues"
              class="issues"
              role="status"
              title=${state.issues.map((found) => found.message).join('\n')}
            >
              &#x26a0; ${errors} variable ${errors === 1 ? 'issue' : 'issues'}
            </span>`
          : nothing
      }
      ${
        state.errors.length > 0
          ? html`<span part="errors" class="issues errors" role="status" title=${state.errors.join('\n')}
              >&#x26a0; ${state.errors.at(-1)}</span
            >`
          : nothing
      }
    </div>
  `;
}
