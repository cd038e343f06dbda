import { isRate, isVolume, Message, PLAYBACK_RATE, type HostMessage } from '../../runtime/protocol/messages.js';
import { FxCompositionEvent } from '../internal/constants.js';
import { emit } from '../internal/events.js';

/** A number the way a `double` property of the DOM takes it: converted, and a `TypeError` when not finite. */
function finite(name: string, value: unknown): number {
  const number = Number(value);
  if (!Number.isFinite(number)) throw new TypeError(`"${name}" must be a finite number, got ${String(value)}`);
  return number;
}

/**
 * A playback rate, checked as Chromium's and Firefox's media elements check it: a `NotSupportedError` outside
 * [0.0625, 16]. Unlike theirs, 0 is refused too: a composition that stands still is `pause()`.
 */
function checkRate(name: string, value: unknown): number {
  const rate = finite(name, value);
  if (!isRate(rate))
    throw new DOMException(
      `"${name}" must be from ${PLAYBACK_RATE.min} to ${PLAYBACK_RATE.max}, got ${rate}`,
      'NotSupportedError',
    );
  return rate;
}

/** A volume, checked as HTMLMediaElement checks it: an `IndexSizeError` outside [0, 1]. */
function checkVolume(value: unknown): number {
  const volume = finite('volume', value);
  if (!isVolume(volume)) throw new DOMException(`"volume" must be from 0 to 1, got ${volume}`, 'IndexSizeError');
  return volume;
}

/**
 * The element's `playbackRate`, `defaultPlaybackRate` and `volume`: checked like HTMLMediaElement's, sent to the
 * frame (which plays the composition and its media at that rate and volume), and announced with `ratechange` and
 * `volumechange`. A refused value throws and changes nothing.
 */
export class PlaybackSettings {
  #rate = 1;
  #defaultRate = 1;
  #volume = 1;

  constructor(
    private readonly target: EventTarget,
    private readonly post: (message: HostMessage) => void,
  ) {}

  get rate(): number {
    return this.#rate;
  }
  set rate(value: number) {
    const rate = checkRate('playbackRate', value);
    if (rate === this.#rate) return;
    this.#rate = rate;
    this.post({ type: Message.setRate, rate });
    emit(this.target, FxCompositionEvent.rateChange);
  }

  get defaultRate(): number {
    return this.#defaultRate;
  }
  set defaultRate(value: number) {
    const rate = checkRate('defaultPlaybackRate', value);
    if (rate === this.#defaultRate) return;
    this.#defaultRate = rate;
    emit(this.target, FxCompositionEvent.rateChange);
  }

  get volume(): number {
    return this.#volume;
  }
  set volume(value: number) {
    const volume = checkVolume(value);
    if (volume === this.#volume) return;
    this.#volume = volume;
    this.post({ type: Message.setVolume, volume });
    emit(this.target, FxCompositionEvent.volumeChange);
  }

  /** A new source plays at the default rate, as a media element's load does. */
  reset(): void {
    this.rate = this.#defaultRate;
  }

  /** What a frame is told, so it plays with these settings and the element's `muted` and `loop`. */
  messages({ muted, loop }: { readonly muted: boolean; readonly loop: boolean }): HostMessage[] {
    return [
      { type: Message.setMuted, muted },
      { type: Message.setLoop, loop },
      { type: Message.setRate, rate: this.#rate },
      { type: Message.setVolume, volume: this.#volume },
    ];
  }
}
