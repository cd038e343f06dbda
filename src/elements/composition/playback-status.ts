import { FxCompositionEvent } from '../internal/constants.js';
import { emit } from '../internal/events.js';

/** HTMLMediaElement's `readyState` values the element uses. */
const ReadyState = { nothing: 0, metadata: 1, enoughData: 4 } as const;
/** HTMLMediaElement's `networkState` values. */
export const NetworkState = { empty: 0, idle: 1, loading: 2, noSource: 3 } as const;

/** `seekable` and `buffered`: one range from 0 to `end`, or none before ready. */
export const timeRanges = (end: number): TimeRanges => ({
  length: end > 0 ? 1 : 0,
  start: () => 0,
  end: () => end,
});

/** `networkState` of a load that is `loading`, failed (`error`), or neither (then loaded once ready). */
export function networkStateOf(kind: 'idle' | 'loading' | 'error', ready: boolean): number {
  if (kind === 'loading') return NetworkState.loading;
  if (kind === 'error') return NetworkState.noSource;
  return ready ? NetworkState.idle : NetworkState.empty;
}

/**
 * Whether playback really moves, told as HTMLMediaElement tells it: `seeking` from a seek's start until it lands,
 * `waiting` when a seek starts while playing, and `playing` once the frame reports playback moving after `play()`
 * or once a seek made while playing landed. media-chrome's loading indicator reads exactly these.
 */
export class PlaybackStatus {
  #seeking = false;
  /** `play()` or a seek while playing happened, and `playing` was not told since. */
  #owesPlaying = false;

  constructor(private readonly target: EventTarget) {}

  get seeking(): boolean {
    return this.#seeking;
  }

  /** `readyState`: nothing before the first frame, only metadata while a seek is pending, else enough to play. */
  readyState(ready: boolean): number {
    if (!ready) return ReadyState.nothing;
    return this.#seeking ? ReadyState.metadata : ReadyState.enoughData;
  }

  /** `play()` started playback: `playing` follows once the frame's clock moves. */
  played(): void {
    this.#owesPlaying = true;
  }

  paused(): void {
    this.#owesPlaying = false;
  }

  /** The frame reported its clock moving while the element plays. */
  moving(): void {
    if (!this.#owesPlaying || this.#seeking) return;
    this.#owesPlaying = false;
    emit(this.target, FxCompositionEvent.playing);
  }

  seekStarted(playing: boolean): void {
    this.#seeking = true;
    emit(this.target, FxCompositionEvent.seeking);
    if (!playing) return;
    this.#owesPlaying = true;
    emit(this.target, FxCompositionEvent.waiting);
  }

  /** The latest seek settled (landed or not); it fires `seeked` itself, then calls {@link moving} if playing. */
  seekEnded(): void {
    this.#seeking = false;
  }
}
