import type { FrameConfig } from '../frame-config.js';
import type { Issue } from '../issues.js';
import type { FxRuntime, SeekableTimeline } from './contract.js';
import { instanceWindow } from './instance-scope.js';
import { MediaSync, untilFirstFrame } from './media.js';
import { seekTarget } from '../seek-target.js';
import { playbackStep, type Anchor } from './playback-step.js';
import { refitAfterFontLoads } from './refit.js';
import { compositionRoot } from './roots.js';
import { ScriptReads } from './script-reads.js';
import { settleTimelineDuration } from './settle-duration.js';
import { Timeline } from './timeline.js';
import { FrameVariables } from './variables.js';

const MEDIA_LOAD_TIMEOUT_MS = 5000;

export interface PlayerEvents {
  onTime(time: number, paused: boolean): void;
  onEnded(): void;
}

/**
 * The one clock of a composition document. Everything that moves (clip windows, GSAP-style timelines, CSS and Web
 * Animations, media) is driven from `#apply(time)`; playback only advances the time it applies.
 */
export class Player {
  readonly variables: FrameVariables;
  /** Which top-level ids scripts read (instances' reads are of their own declarations, which no host edits). */
  readonly reads = new ScriptReads();
  readonly ready: Promise<void>;
  timeline: Timeline | undefined;
  /** Why the duration is 0 when it was to come from the registered timeline (see settle-duration.ts). */
  durationIssue: Issue | undefined;
  loop = false;
  events: PlayerEvents | undefined;
  #config: FrameConfig;
  #duration: number;
  #instanceTimelines = new Map<string, Record<string, SeekableTimeline>>();
  #media: MediaSync | undefined;
  #time = 0;
  #paused = true;
  #muted = false;
  #volume = 1;
  /** Composition seconds per wall-clock second. */
  #rate = 1;
  #anchor: Anchor = { wall: 0, time: 0 };
  #frame = 0;
  #markReady!: () => void;

  constructor(config: FrameConfig) {
    this.#config = config;
    this.#duration = config.duration;
    this.variables = new FrameVariables(config.overrides);
    this.ready = new Promise((resolve) => (this.#markReady = resolve));
  }

  get duration(): number {
    return this.#duration;
  }

  /** Called once the document loaded: composition scripts ran, so durations and media can be read. */
  async start(): Promise<void> {
    this.variables.applyAll(document);
    const root = compositionRoot() ?? document.body;
    const media = [...root.querySelectorAll<HTMLMediaElement>('video, audio')];
    // Clip windows read media durations, and the first seek needs a decoded frame (see `untilFirstFrame`).
    const settled = this.#config.durationFromTimeline
      ? settleTimelineDuration(this.#config.compositionId)
      : Promise.resolve({ seconds: this.#duration, issue: undefined });
    await Promise.all(media.map((element) => untilFirstFrame(element, MEDIA_LOAD_TIMEOUT_MS)));
    const { seconds, issue } = await settled;
    this.#duration = seconds;
    this.durationIssue = issue;
    this.timeline = new Timeline(root, this.duration, this.#instanceTimelines);
    this.#media = new MediaSync(media, this.timeline);
    this.#media.muted = this.#muted;
    this.#media.volume = this.#volume;
    this.#media.rate = this.#rate;
    await this.seek(0);
    this.variables.markReady();
    this.#markReady();
  }

  set muted(muted: boolean) {
    this.#muted = muted;
    if (this.#media) this.#media.muted = muted;
  }

  set volume(volume: number) {
    this.#volume = volume;
    if (this.#media) this.#media.volume = volume;
  }

  /** Plays on at `rate` from where playback is now (the time so far was played at the old rate). */
  set rate(rate: number) {
    if (!this.#paused) this.#anchor = { wall: performance.now(), time: this.#step(performance.now()).time };
    this.#rate = rate;
    if (this.#media) this.#media.rate = rate;
  }

  #step(now: number) {
    return playbackStep(this.#anchor, now, this.duration, this.loop, this.#rate);
  }

  #apply(time: number): void {
    this.#time = time;
    this.timeline?.apply(time);
  }

  /** Moves everything to `seconds` (clamped and on the frame grid, see `seekTarget`) and resolves with that time once the frame can paint. */
  async seek(seconds: number): Promise<number> {
    const time = seekTarget(seconds, this.duration, this.#config.fps);
    this.#apply(time);
    this.#anchor = { wall: performance.now(), time };
    if (this.#paused) await this.#media?.seek(time);
    await frameAssetsReady(this.timeline?.root ?? document.body);
    refitAfterFontLoads();
    return time;
  }

  play(): void {
    if (!this.#paused) return;
    if (this.#time >= this.duration) this.#apply(0);
    this.#paused = false;
    this.#anchor = { wall: performance.now(), time: this.#time };
    this.#frame = requestAnimationFrame(this.#tick);
  }

  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    cancelAnimationFrame(this.#frame);
    this.#media?.pause();
    void this.seek(this.#time);
    this.events?.onTime(this.#time, true);
  }

  #tick = (now: number) => {
    if (this.#paused) return;
    const { time, anchor, ended } = this.#step(now);
    this.#anchor = anchor;
    if (ended) {
      this.#apply(time);
      this.#paused = true;
      this.#media?.pause();
      this.events?.onTime(time, true);
      this.events?.onEnded();
      return;
    }
    this.#apply(time);
    this.#media?.play(time);
    this.events?.onTime(time, false);
    this.#frame = requestAnimationFrame(this.#tick);
  };

  /** The `window.__fx` of the top level, or of one instance (its `getVariables` answers for that instance). */
  api(instance?: string): FxRuntime {
    const player = this;
    return {
      version: 1,
      getVariables: () =>
        instance === undefined ? player.reads.watch(player.variables.get()) : player.variables.get(instance),
      get duration() {
        return player.duration;
      },
      get fps() {
        return player.#config.fps;
      },
      get currentTime() {
        return player.#time;
      },
      get paused() {
        return player.#paused;
      },
      ready: this.ready,
      seek: (seconds) => player.seek(seconds),
      play: () => player.play(),
      pause: () => player.pause(),
    };
  }

  /** Runs one wrapped sub-composition script with the instance's `window` and `__fx` (and `__hyperframes`). */
  runInstanceScript(
    instance: string,
    script: (
      window: Window,
      globalThis: Window,
      self: Window,
      fx: FxRuntime,
      fxVariables: undefined,
      hyperframes: FxRuntime,
    ) => void,
  ): void {
    let timelines = this.#instanceTimelines.get(instance);
    if (!timelines) this.#instanceTimelines.set(instance, (timelines = {}));
    const fx = this.api(instance);
    const scoped = instanceWindow(fx, timelines, this.#config.aliases);
    // The wrapper names the alias parameters only when the aliases are on (see compile.ts).
    script.call(scoped, scoped, scoped, scoped, fx, undefined, fx);
  }
}

/** Fonts loaded and visible images decoded, so the next paint shows the final frame. */
async function frameAssetsReady(root: Element): Promise<void> {
  const images = [...root.querySelectorAll('img')].filter((image) => image.src && !image.complete);
  await Promise.all([document.fonts?.ready, ...images.map((image) => image.decode().catch(() => undefined))]);
}
