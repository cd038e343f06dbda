/** The playhead of `<fx-composition>` (play, pause, seek, where a load starts), so the element keeps only its API. */
import type { ReactiveControllerHost } from 'lit';
import { Message } from '../../runtime/protocol/messages.js';
import { FxCompositionEvent } from '../internal/constants.js';
import { emit } from '../internal/events.js';
import type { Playhead } from './frame-loader.js';
import { clampTime, landingTime, type Stage } from './frame-reports.js';
import type { FrameSession } from './frame-session.js';
import { OncePerFrame } from './once-per-frame.js';
import { PlaybackStatus } from './playback-status.js';
import { posterSeconds } from './poster-time.js';

/** The element, as far as the playhead goes. */
export interface TransportHost extends ReactiveControllerHost, EventTarget {
  /** A frame is on stage and ready. */
  readonly ready: boolean;
  readonly autoplay: boolean;
  readonly posterTime: string;
}

/** The load, as far as the playhead goes. */
export interface TransportFrame {
  /** The session on stage. */
  session(): FrameSession | undefined;
  /** Timing of the composition on stage. */
  stage(): Stage;
  /** The session on stage once ready; rejects (instead of waiting forever) when loading fails or the element leaves. */
  readySession(): Promise<FrameSession>;
}

/** As lit's `notEqual`: a state change worth an update (NaN to NaN is none). */
const changed = (old: unknown, value: unknown) => old !== value && (old === old || value === value);

/**
 * The playhead the element shows and whether it plays: `play()`, `pause()` and `seek()`, the frame's reports of
 * its clock, the poster frame a first load starts on, and pausing off screen. Told as HTMLMediaElement tells it
 * (playback-status.ts); a change of what shows asks the host for an update.
 */
export class Transport {
  #time = 0;
  #paused = true;
  /** Playback was asked for (`play()`, `autoplay`, a reload of a playing frame): off screen, it waits for the view. */
  #wantsPlay = false;
  /** `currentTime` set before ready: where the element starts. */
  #startAt: number | undefined;
  /** Where the poster frame is, while the frame shows it (paused, never played; the playhead says 0). */
  #posterAt: number | undefined;
  /** The latest `seek()` call: only its answer may move the playhead (the frame may answer out of order). */
  #seekCall = 0;
  /** Where the latest `seek()` lands, until it did: a reload swapping meanwhile starts there. */
  #seekTarget: number | undefined;
  /** The frame's latest playhead report, applied once per animation frame. */
  #reports = new OncePerFrame<{ time: number; paused: boolean }>((reported) => {
    this.#setTime(reported.time);
    if (reported.paused) this.#setPaused(true);
    emit(this.host, FxCompositionEvent.timeUpdate);
  });
  readonly status: PlaybackStatus;

  constructor(
    private readonly host: TransportHost,
    private readonly frame: TransportFrame,
  ) {
    this.status = new PlaybackStatus(host);
  }

  /** The playhead shown. */
  get time(): number {
    return this.#time;
  }
  get paused(): boolean {
    return this.#paused;
  }
  /** Where a relative seek (j/l, arrows) starts: where a pending seek lands, else the playhead. */
  get seekFrom(): number {
    return this.#seekTarget ?? this.#time;
  }
  /** Where a reload picks up: the poster frame, or where a pending seek lands, else the playhead. */
  get playhead(): { time: number; playing: boolean } {
    return { time: this.#posterAt ?? this.#seekTarget ?? this.#time, playing: !this.#paused };
  }

  get currentTime(): number {
    return this.host.ready ? this.#time : (this.#startAt ?? this.#time);
  }
  set currentTime(seconds: number) {
    if (this.host.ready) this.seekQuietly(seconds);
    else this.#startAt = Number.isFinite(seconds) ? seconds : 0;
  }

  #setTime(time: number): void {
    const old = this.#time;
    this.#time = time;
    if (changed(old, time)) this.host.requestUpdate();
  }

  #setPaused(paused: boolean): void {
    const old = this.#paused;
    this.#paused = paused;
    if (old !== paused) this.host.requestUpdate();
  }

  /** Starts playback (once ready). */
  play(): void {
    this.#wantsPlay = true;
    if (this.host.ready && this.#paused) {
      this.#setPaused(false);
      // The poster frame is not the playhead: play from it (0). The frame takes messages in order.
      if (this.#posterAt !== undefined) void this.frame.session()?.seek(this.#time);
      this.#posterAt = undefined;
      this.frame.session()?.post({ type: Message.play });
      this.status.played();
      emit(this.host, FxCompositionEvent.play);
    }
  }

  pause(): void {
    this.#wantsPlay = false;
    this.#halt();
  }

  /** Pauses, still wanting to play: off screen, it resumes once back in view. */
  #halt(): void {
    if (this.#paused) return;
    this.#setPaused(true);
    this.frame.session()?.post({ type: Message.pause });
    this.status.paused();
    emit(this.host, FxCompositionEvent.pause);
  }

  /** Off screen, playback pauses (still wanting to play); back in view, it resumes. */
  visibility(visible: boolean): void {
    if (!visible) this.#halt();
    else if (this.#wantsPlay) this.play();
  }

  /** `FxComposition.seek`: resolves with the landed time once that frame is on screen. */
  async seek(seconds: number): Promise<number> {
    const call = ++this.#seekCall;
    this.status.seekStarted(!this.#paused);
    let session: FrameSession;
    try {
      session = await this.frame.readySession();
    } catch (error) {
      if (call === this.#seekCall) this.status.seekEnded();
      throw error;
    }
    if (call !== this.#seekCall) return landingTime(seconds, this.frame.stage());
    const time = landingTime(seconds, this.frame.stage());
    this.#seekTarget = time;
    this.#posterAt = undefined;
    const painted = await session.seek(time);
    // A newer seek owns the playhead; this one's answer may even come after it.
    if (call !== this.#seekCall) return time;
    this.#seekTarget = undefined;
    // A reload swapped in meanwhile (starting at this seek's time): land there on the new frame too.
    if (session !== this.frame.session() && this.frame.session()) return this.seek(seconds);
    this.status.seekEnded();
    if (!painted) return this.#time;
    // A time report from before the seek must not move the playhead back.
    this.#reports.cancel();
    this.#setTime(time);
    emit(this.host, FxCompositionEvent.timeUpdate);
    emit(this.host, FxCompositionEvent.seeked);
    if (!this.#paused) this.status.moving();
    return time;
  }

  /** {@link seek} for callers that do not wait (the `currentTime` setter, the scrubber): a failed load is reported as an `error` event already. */
  seekQuietly(seconds: number): void {
    this.seek(seconds).catch(() => undefined);
  }

  /** A frame went on stage, paused: at the playhead a reload kept (`keep`), else where a first load starts. */
  arrived(keep: Playhead | undefined, stage: Stage): void {
    this.#reports.cancel();
    this.#setPaused(true);
    if (keep) {
      // While the poster frame shows, the playhead stays at 0.
      this.#setTime(this.#posterAt === undefined ? clampTime(keep.time, stage) : 0);
      if (!keep.painted) void this.frame.session()?.seek(landingTime(keep.time, stage));
    } else this.#start(stage);
  }

  /** Where a first load starts: a `currentTime` set before ready, else (paused, never played) the poster frame. */
  #start(stage: Stage): void {
    const startAt = this.#startAt;
    this.#startAt = undefined;
    this.#posterAt = undefined;
    const poster = startAt === undefined && !this.host.autoplay && !this.#wantsPlay;
    const time =
      startAt !== undefined
        ? landingTime(startAt, stage)
        : poster
          ? landingTime(posterSeconds(this.host.posterTime, stage.duration), stage)
          : 0;
    if (poster && time > 0) this.#posterAt = time;
    this.#setTime(poster ? 0 : time);
    // Posted before anyone hears `ready`: a seek made then lands after it.
    if (time > 0) void this.frame.session()?.seek(time);
  }

  /** Once the frame on stage was announced: plays if it played before a reload, was asked to, or autoplays. */
  resume(keep: Playhead | undefined, visible: boolean): void {
    if (keep?.playing || this.#wantsPlay || (this.host.autoplay && !keep)) {
      this.#wantsPlay = true;
      // Off screen, `visibility` starts it once it scrolls into view.
      if (visible) this.play();
    }
  }

  /** The frame's clock (its `time` message; the time clamped by the caller). */
  reported(time: number, paused: boolean): void {
    // A pause reported within the frame's burst still counts.
    this.#reports.push((waiting) => ({ time, paused: paused || (waiting?.paused ?? false) }));
    if (!paused && !this.#paused) this.status.moving();
  }

  /** The frame played to the end (without `loop`). */
  ended(): void {
    this.#reports.flush();
    this.#setPaused(true);
    this.#wantsPlay = false;
    this.status.paused();
    emit(this.host, FxCompositionEvent.pause);
    emit(this.host, FxCompositionEvent.ended);
  }

  /** The element left the document: a report of its frame waiting for an animation frame is dropped. */
  left(): void {
    this.#reports.cancel();
  }
}
