import type { FrameConfig } from '../frame-config.js';
import type { Issue } from '../issues.js';
import type { FxRuntime, SeekableTimeline } from './contract.js';
import { instanceWindow } from './instance-scope.js';
import { holdDateNow } from './load-clock.js';
import { MediaSync, untilFirstFrame } from './media.js';
import { seekTarget } from '../seek-target.js';
import { playbackStep, type Anchor } from './playback-step.js';
import { refitWhereStale } from './refit.js';
import { LoadReaders, prepareBody, rerunnableBody, runBodyAgain, type RerunBody } from './rerun.js';
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
  /** Which scripts read the top-level values while the document loaded (or ran again): can they run again? */
  readonly loadReaders = new LoadReaders();
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
  /** Scripts are running as the document loads, or again: their reads decide whether they can run again. */
  #loading = true;
  /** The compiled document, as the host sent it for reruns; parsed once into the body to rerun (`null`: refused). */
  #compiled: string | undefined;
  #rerunBody: RerunBody | null | undefined;

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
    this.#follow(root, media);
    await this.seek(0);
    this.#loading = false;
    this.variables.markReady();
    this.#markReady();
  }

  /** Times and media of the document's clips, read from the DOM as it is now. */
  #follow(root: Element, media: HTMLMediaElement[]): void {
    this.timeline = new Timeline(root, this.duration, this.#config.fps, this.#instanceTimelines);
    this.#media = new MediaSync(media, this.timeline);
    this.#media.muted = this.#muted;
    this.#media.volume = this.#volume;
    this.#media.rate = this.#rate;
  }

  /** The compiled document as loaded, for {@link rerun} (sent by the host once values change). */
  offerCompiled(html: string): void {
    this.#compiled ??= html;
  }

  /**
   * Runs the body's scripts again in place, now that `overrides` are set (see rerun.ts), and applies the playhead in
   * the same task and again in the next animation frame, where it resolves: that frame's paint shows the new values
   * at the playhead. False when this document cannot run again so (nothing changed then), or a script threw while it
   * did: a reload must follow.
   */
  async rerun(overrides: Record<string, unknown>): Promise<boolean> {
    if (this.#config.durationFromTimeline || !this.timeline || !this.loadReaders.inBody) return false;
    if (this.#rerunBody === undefined && this.#compiled !== undefined)
      this.#rerunBody = rerunnableBody(this.#compiled) ?? null;
    const body = this.#rerunBody && prepareBody(this.#rerunBody);
    if (!body) return false;
    for (const timelines of [window.__timelines ?? {}, ...this.#instanceTimelines.values()])
      for (const timeline of Object.values(timelines)) (timeline as { kill?: () => void }).kill?.();
    window.__timelines = {};
    this.#instanceTimelines.clear();
    window.__fxVariables = overrides;
    if (this.#config.aliases) window.__hfVariables = overrides;
    this.#media?.pause();
    this.loadReaders.forget();
    // As at load: scripts timing themselves take the branch they take in a render.
    const releaseDateNow = holdDateNow();
    try {
      this.#loading = true;
      const ran = runBodyAgain(body);
      this.#loading = false;
      // A failed rerun is not tried again: the reload that follows replaces this document.
      if (!ran) this.#rerunBody = null;
      this.variables.rescan(document);
      const root = compositionRoot() ?? document.body;
      this.#follow(root, [...root.querySelectorAll<HTMLMediaElement>('video, audio')]);
      this.#apply(this.#time);
      // Scripts may build again from promise callbacks (on `document.fonts.ready`, say), after this task: the
      // playhead is applied once more right before the next paint, stepping through the tweens they added too. The
      // caller resolves when that frame painted.
      await untilAnimationFrame();
      this.timeline?.stepAgain();
      this.#apply(this.#time);
      if (this.#paused) void this.#media?.seek(this.#time);
      return ran;
    } finally {
      releaseDateNow();
    }
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
    refitWhereStale();
    return time;
  }

  /** Resolves once the videos the last seek moved are presented with their new frames (see `MediaSync.presented`). */
  get mediaPresented(): Promise<void> {
    return this.#media?.presented ?? Promise.resolve();
  }

  /** Resolves once no media element is seeking, with no deadline (the renderer's; see `MediaSync.seeked`). */
  mediaSeeked(): Promise<void> {
    return this.#media?.seeked() ?? Promise.resolve();
  }

  /** Presents the frames of the videos the last seek moved once more (see `MediaSync.presentAgain`). */
  presentMediaAgain(): Promise<void> {
    return this.#paused ? (this.#media?.presentAgain() ?? Promise.resolve()) : Promise.resolve();
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
      getVariables: () => (instance === undefined ? player.#topLevelValues() : player.variables.get(instance)),
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

  #topLevelValues(): Record<string, unknown> {
    if (this.#loading) this.loadReaders.record();
    return this.reads.watch(this.variables.get());
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

/** The next animation frame's callbacks (at once in a hidden document, which gets none). */
function untilAnimationFrame(): Promise<unknown> {
  return new Promise((resolve) =>
    document.visibilityState === 'hidden' ? resolve(undefined) : requestAnimationFrame(resolve),
  );
}

/** Image elements decoded once: a later seek finds them ready without asking again. */
const decodedImages = new WeakSet<HTMLImageElement>();

/**
 * Fonts loaded and images decoded, so the next paint shows the final frame. Each image element is decoded once,
 * loaded or not: a new element of an image already loaded (a script run again in place) is `complete` at once,
 * but WebKit paints it only once it decoded it again, which a loaded machine makes last frames.
 */
async function frameAssetsReady(root: Element): Promise<void> {
  const images = [...root.querySelectorAll('img')].filter(
    (image) => image.src && (!image.complete || !decodedImages.has(image)),
  );
  await Promise.all([
    document.fonts?.ready,
    ...images.map((image) =>
      image.decode().then(
        () => decodedImages.add(image),
        () => undefined,
      ),
    ),
  ]);
}
