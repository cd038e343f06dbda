import { ENGAGE, steerDrift } from './drift.js';
import type { Timeline } from './timeline.js';
import { untilEvent } from './until-event.js';

const SEEK_TIMEOUT_MS = 3000;
/**
 * A started media element counts as moving once its clock advanced, tick after tick, by at least this fraction of
 * the composition's: right after play() its position may jump a little, once or twice, then stall for a few frames.
 */
const MOVING_SPEED = 0.5;
const MOVING_TICKS = 2;
/** Longest start-up stall worth leading by (seconds); beyond it something else is wrong. */
const MAX_START_LEAD = 0.5;
/**
 * Containers store frame times rounded (WebM to the millisecond), so frame k of a 30 fps video may start a
 * fraction of a millisecond after k / 30. Seeking a hair past the exact time shows frame k, not k - 1.
 */
const FRAME_TIME_ROUNDING = 0.001;
/**
 * A video's seeked frame reaches the compositor after `seeked`, sometimes a frame or more later: a screenshot right
 * after the seek showed the clip's previous frame. A seek waits for the frame's presentation this long at most (a
 * video the compositor does not draw presents nothing).
 */
const PRESENT_TIMEOUT_MS = 250;
/** The longest a video frame lasts (10 fps clips): a presented frame starting earlier shows another position. */
const LONGEST_FRAME = 0.1;
/** How far (seconds) a media element's position may be from a time and still count as there (no seek, not moved). */
const MOVED = 0.0005;
/** How far (seconds) from a seek's position the same frame is sought again: less than {@link MOVED}, more than 0. */
const BESIDE = 0.0003;
/** Animation frames from a seek's video frame presented to the same frame presented again (see `presentAgain`). */
const PRESENT_AGAIN_AFTER_FRAMES = 3;

/** A media element between play() (or a jump) and moving: its position and the composition time last tick. */
interface Warmup {
  position: number;
  time: number;
  advances: number;
}

/**
 * Makes every media element of the document load in full from its first byte on. Chromium never completes a seek
 * of some files (a WebM whose audio starts before 0) when the element loaded with `preload="metadata"` (the
 * default), even long after; switching to `auto` later does not help, so it happens when loading starts.
 */
export function preloadMediaInFull(): void {
  // `loadstart` does not bubble; a capturing listener on the window sees it for every element in the document.
  addEventListener(
    'loadstart',
    (event) => {
      if (event.target instanceof HTMLMediaElement) event.target.preload = 'auto';
    },
    true,
  );
}

/** True while `media` fetches a source but has not decoded the frame at its position yet. */
function isLoadingFirstFrame(media: HTMLMediaElement): boolean {
  const fetching =
    media.networkState === HTMLMediaElement.NETWORK_LOADING || media.networkState === HTMLMediaElement.NETWORK_IDLE;
  return fetching && !media.error && media.readyState < HTMLMediaElement.HAVE_CURRENT_DATA;
}

/**
 * Resolves once `media` has decoded the frame at its position, cannot load, or `ms` passed. Seeks wait for it:
 * Chromium may never complete a seek made earlier (right after `loadedmetadata`) of the same files.
 */
export function untilFirstFrame(media: HTMLMediaElement, ms: number): Promise<void> {
  if (!isLoadingFirstFrame(media)) return Promise.resolve();
  media.preload = 'auto';
  return untilEvent(media, ['loadeddata', 'error'], ms);
}

/**
 * Resolves once `video` handed the compositor the frame at its position, with that frame's media time; at once with
 * `undefined` where that cannot be known (no `requestVideoFrameCallback`, or a video not drawn: `display: none`,
 * `visibility: hidden`), or after {@link PRESENT_TIMEOUT_MS}. A frame of an earlier, overlapping seek may be
 * presented first; it does not count.
 */
function untilFramePresented(video: HTMLVideoElement): Promise<number | undefined> {
  if (!('requestVideoFrameCallback' in video) || !video.checkVisibility({ visibilityProperty: true }))
    return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (mediaTime?: number) => {
      clearTimeout(timer);
      video.cancelVideoFrameCallback(callback);
      resolve(mediaTime);
    };
    const onFrame: VideoFrameRequestCallback = (_now, frame) => {
      const shows = frame.mediaTime <= video.currentTime + FRAME_TIME_ROUNDING;
      if (shows && video.currentTime - frame.mediaTime < LONGEST_FRAME) done(frame.mediaTime);
      else callback = video.requestVideoFrameCallback(onFrame);
    };
    const timer = setTimeout(done, PRESENT_TIMEOUT_MS);
    let callback = video.requestVideoFrameCallback(onFrame);
  });
}

/** Resolves once `media` ends its seek (or fails, or loses its source), with no deadline (see `MediaSync.seeked`). */
function untilSeekEnds(media: HTMLMediaElement): Promise<void> {
  return new Promise((resolve) => {
    const events = ['seeked', 'error', 'emptied'];
    const done = () => {
      for (const name of events) media.removeEventListener(name, done);
      resolve();
    };
    for (const name of events) media.addEventListener(name, done);
  });
}

/**
 * A position beside `position` (within {@link MOVED}, so a later seek to the same time still counts as there) and
 * inside the frame that starts at `frameStart`, which a seek to `position` showed: seeking there shows it again.
 */
function besideInFrame(frameStart: number, position: number): number {
  return position - BESIDE >= frameStart ? position - BESIDE : position + BESIDE;
}

/** Resolves after `count` animation frames (at once in a hidden document, which gets none). */
async function animationFrames(count: number): Promise<void> {
  for (let k = 0; k < count && document.visibilityState === 'visible'; k++)
    await new Promise((resolve) => requestAnimationFrame(resolve));
}

/**
 * Keeps `<video>` and `<audio>` on the composition clock: seeked exactly when paused or seeking, played and
 * drift-corrected while playing, paused outside their clip window.
 */
export class MediaSync {
  #starting = new WeakSet<HTMLMediaElement>();
  #steering = new WeakSet<HTMLMediaElement>();
  #warmups = new WeakMap<HTMLMediaElement, Warmup>();
  #authoredMuted = new WeakMap<HTMLMediaElement, boolean>();
  #authoredVolume = new WeakMap<HTMLMediaElement, number>();
  /** The composition's playback rate: media play at it (times a steering factor while drift is corrected). */
  #rate = 1;
  /**
   * How far a media element falls behind while it starts (its start-up stall), learned from the starts seen so far:
   * later starts begin this far ahead, so they run in step once they move.
   */
  #startLead = 0;
  /** Whether a start has taught the lead yet (until then a start that lands out of step is started again). */
  #calibrated = false;
  /**
   * Resolves once the videos the last seek moved handed the compositor their new frames: what the host page shows
   * waits for it; the renderer does not (its BeginFrame draws the decoded frame, and presents nothing before it).
   */
  get presented(): Promise<void> {
    return this.#presented;
  }
  #presented: Promise<void> = Promise.resolve();
  /**
   * Resolves once no media element is seeking any more, however long that takes: a seek gives up waiting after
   * {@link SEEK_TIMEOUT_MS} (a preview must answer), the renderer must not. A BeginFrame captured while a video was
   * still seeking (a slow download, or a long GOP decoded on a loaded machine) left Chromium (156) compositing that
   * video one seek behind in every later capture of the page: the tile showed the worker's previous frame to the end.
   */
  async seeked(): Promise<void> {
    await Promise.all(this.media.filter((media) => media.seeking).map(untilSeekEnds));
  }

  /** The videos the last seek moved, each with the frame it presented and the position it was seeked to. */
  #shown = new Map<HTMLVideoElement, { frameStart: number; position: number }>();

  /** Takes over the composition's media, found once it is ready (so media its scripts added are included). */
  constructor(
    private readonly media: readonly HTMLMediaElement[],
    private readonly timeline: Timeline,
  ) {
    for (const media of this.media) {
      this.#authoredMuted.set(media, media.muted);
      this.#authoredVolume.set(media, media.volume);
      media.preload = 'auto';
      media.autoplay = false;
    }
  }

  set muted(muted: boolean) {
    for (const media of this.media) media.muted = muted || this.#authoredMuted.get(media)!;
  }

  /** The host's volume scales each element's own (an author's quiet background track stays quieter). */
  set volume(volume: number) {
    for (const media of this.media) media.volume = volume * this.#authoredVolume.get(media)!;
  }

  set rate(rate: number) {
    this.#rate = rate;
    // Steered elements get the new rate times their factor on the next tick.
    for (const media of this.media) if (!this.#steering.has(media)) media.playbackRate = rate;
  }

  /** `time` in the media's own clock, `undefined` outside its clip window. */
  #local(media: HTMLMediaElement, time: number): number | undefined {
    // Media elements are clips: the timeline has a window for each.
    const window = this.timeline.windowOf(media)!;
    if (time < window.start || time >= window.end) return undefined;
    return time - window.start;
  }

  /** Seeks every media element to `time` and resolves when all have the frame (or timed out). */
  async seek(time: number): Promise<void> {
    // Usually nothing is loading, and the seeks below start at once.
    const loading = this.media.filter(isLoadingFirstFrame);
    if (loading.length > 0) await Promise.all(loading.map((media) => untilFirstFrame(media, SEEK_TIMEOUT_MS)));
    const pending: Promise<void>[] = [];
    const presentations: Promise<unknown>[] = [];
    const shown = new Map<HTMLVideoElement, { frameStart: number; position: number }>();
    this.#shown = shown;
    for (const media of this.media) {
      if (!media.paused) media.pause();
      const local = this.#local(media, time) ?? 0;
      const exact = local > 0 ? local + FRAME_TIME_ROUNDING : 0;
      const target = Number.isFinite(media.duration) ? Math.min(exact, media.duration) : exact;
      if (Math.abs(media.currentTime - target) < MOVED && !media.seeking) continue;
      // Without metadata there is nothing to seek yet; the position is kept for when it loads.
      if (media.readyState >= HTMLMediaElement.HAVE_METADATA) {
        pending.push(untilEvent(media, ['seeked', 'error'], SEEK_TIMEOUT_MS));
        // Asked before the seek starts: its frame may be presented before `seeked` is heard.
        if (media instanceof HTMLVideoElement) {
          const video = media;
          presentations.push(
            untilFramePresented(video).then((frameStart) => {
              if (frameStart !== undefined) shown.set(video, { frameStart, position: target });
            }),
          );
        }
      }
      media.currentTime = target;
    }
    this.#presented = Promise.all(presentations).then(() => undefined);
    await Promise.all(pending);
  }

  /**
   * Hands the compositor the frames of the last seek once more, {@link PRESENT_AGAIN_AFTER_FRAMES} animation frames
   * after they were presented, and resolves once they were. Chromium (156; a video in an out-of-process frame, busy
   * cores) now and then composites a paused video one frame behind the frame it reports presented, and stays behind:
   * `await seek(1.3)` then a screenshot showed the clip frame from before the seek, and the next seek's screenshot
   * 1.3's, in 2–3 of 100 fresh pages whose video was hidden until that seek (about 1 in 150 with it shown). Waiting
   * does not help (500 ms later, the same), nor does a paint of the frame; the same frame presented again does, when
   * it comes a few frames later (0 of 300 pages with 3; with 1 the next seek lagged in 12 of 300). Videos moved
   * since, or playing, are left alone.
   */
  async presentAgain(): Promise<void> {
    const shown = [...this.#shown];
    this.#shown = new Map();
    if (shown.length === 0) return;
    await animationFrames(PRESENT_AGAIN_AFTER_FRAMES);
    const presentations: Promise<unknown>[] = [];
    for (const [video, { frameStart, position }] of shown) {
      if (!video.paused || video.seeking || Math.abs(video.currentTime - position) > MOVED) continue;
      presentations.push(untilEvent(video, ['seeked', 'error'], SEEK_TIMEOUT_MS), untilFramePresented(video));
      video.currentTime = besideInFrame(frameStart, position);
    }
    await Promise.all(presentations);
  }

  /** Called on every playback tick. */
  play(time: number): void {
    for (const media of this.media) {
      const local = this.#local(media, time);
      if (local === undefined || (Number.isFinite(media.duration) && local >= media.duration)) {
        if (!media.paused) media.pause();
        continue;
      }
      if (media.paused) {
        // Starting takes a few frames; seeking again meanwhile would restart it on every tick.
        if (!this.#starting.has(media)) this.#start(media, local);
        continue;
      }
      const drift = media.currentTime - local;
      if (this.#warmups.has(media) && !this.#warmedUp(media, time, drift)) continue;
      this.#correct(media, drift, local);
    }
  }

  /** Plays `media` from `local`, as far ahead as its start-up stall is expected to lose. */
  #start(media: HTMLMediaElement, local: number): void {
    this.#starting.add(media);
    this.#jump(media, local);
    media
      .play()
      .catch(() => undefined) // blocked autoplay: the frame keeps its own clock
      .finally(() => this.#starting.delete(media));
  }

  /** Moves `media` to `local` (plus the start-up lead) and watches it until it moves again. */
  #jump(media: HTMLMediaElement, local: number): void {
    this.#steering.delete(media);
    media.playbackRate = this.#rate;
    media.currentTime = local + this.#startLead;
    this.#warmups.set(media, { position: media.currentTime, time: Number.NaN, advances: 0 });
  }

  /**
   * While `media` stalls after a start or a jump nothing is corrected (steering or seeking would only stall it
   * again). Once it moves, its drift tells how far the start-up lead was off, and the lead is corrected. The first
   * start that lands out of step starts again with the corrected lead: steering a start-up stall away takes long.
   */
  #warmedUp(media: HTMLMediaElement, time: number, drift: number): boolean {
    const warmup = this.#warmups.get(media)!;
    const position = media.currentTime;
    warmup.advances = position - warmup.position >= (time - warmup.time) * MOVING_SPEED ? warmup.advances + 1 : 0;
    warmup.position = position;
    warmup.time = time;
    if (warmup.advances < MOVING_TICKS) return false;
    this.#warmups.delete(media);
    const lead = this.#startLead - drift;
    // A stall longer than any start-up (a slow network, say) teaches nothing.
    if (lead > MAX_START_LEAD) return true;
    this.#startLead = Math.max(0, lead);
    const restart = !this.#calibrated && Math.abs(drift) > ENGAGE;
    this.#calibrated = true;
    if (!restart) return true;
    media.pause(); // the next tick starts it again, with the lead just learned
    return false;
  }

  /** Keeps a playing `media` on the clock (see drift.ts for the rule). */
  #correct(media: HTMLMediaElement, drift: number, local: number): void {
    const action = steerDrift(drift, this.#steering.has(media));
    if (action.kind === 'jump') return this.#jump(media, local);
    if (action.kind === 'leave') return;
    if (action.steering) this.#steering.add(media);
    else this.#steering.delete(media);
    const rate = action.rate * this.#rate;
    if (media.playbackRate !== rate) media.playbackRate = rate;
  }

  pause(): void {
    for (const media of this.media) {
      if (!media.paused) media.pause();
      this.#steering.delete(media);
      media.playbackRate = this.#rate;
    }
  }
}
