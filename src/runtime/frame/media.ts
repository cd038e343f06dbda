import type { Timeline } from './timeline.js';

/** Drift beyond which a playing media element is seeked back onto the composition clock (seconds). */
const MAX_DRIFT = 0.25;
/** Drift below which nothing is corrected; between the two, the playback rate steers it back smoothly. */
const SYNCED = 0.01;
/** Rate change per second of drift, and its bounds: 40 ms of lag plays at 1.08× until it is gone. */
const RATE_GAIN = 2;
const MAX_RATE_STEP = 0.1;
const SEEK_TIMEOUT_MS = 3000;
/**
 * Containers store frame times rounded (WebM to the millisecond), so frame k of a 30 fps video may start a
 * fraction of a millisecond after k / 30. Seeking a hair past the exact time shows frame k, not k - 1.
 */
const FRAME_TIME_ROUNDING = 0.001;

/**
 * Keeps `<video>` and `<audio>` on the composition clock: seeked exactly when paused or seeking, played and
 * drift-corrected while playing, paused outside their clip window.
 */
export class MediaSync {
  #media: HTMLMediaElement[] = [];
  #muted = false;
  #starting = new WeakSet<HTMLMediaElement>();
  #authoredMuted = new WeakMap<HTMLMediaElement, boolean>();
  /** Absolute drift of each correction check while playing, for the benchmark. */
  readonly drift: number[] = [];

  constructor(private readonly timeline: Timeline) {
    this.refresh();
  }

  /** Finds media again (scripts may have added or re-pointed some). */
  refresh(): void {
    this.#media = [...this.timeline.root.querySelectorAll<HTMLMediaElement>('video, audio')];
    for (const media of this.#media) {
      if (!this.#authoredMuted.has(media)) this.#authoredMuted.set(media, media.muted);
      media.preload = 'auto';
      media.autoplay = false;
      media.muted = this.#muted || this.#authoredMuted.get(media)!;
    }
  }

  set muted(muted: boolean) {
    this.#muted = muted;
    for (const media of this.#media) media.muted = muted || this.#authoredMuted.get(media)!;
  }

  #local(media: HTMLMediaElement, time: number): number | undefined {
    const clip = this.timeline.clips.find((candidate) => candidate.element === media);
    const window = clip?.window ?? { start: 0, end: this.timeline.duration };
    if (time < window.start || time >= window.end) return undefined;
    return time - window.start;
  }

  /** Seeks every media element to `time` and resolves when all have the frame (or timed out). */
  async seek(time: number): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const media of this.#media) {
      if (!media.paused) media.pause();
      const local = this.#local(media, time) ?? 0;
      const exact = local > 0 ? local + FRAME_TIME_ROUNDING : 0;
      const target = Number.isFinite(media.duration) ? Math.min(exact, media.duration) : exact;
      if (Math.abs(media.currentTime - target) < 0.0005 && !media.seeking) continue;
      // Without metadata there is nothing to seek yet; the position is kept for when it loads.
      if (media.readyState >= HTMLMediaElement.HAVE_METADATA) pending.push(seeked(media));
      media.currentTime = target;
    }
    await Promise.all(pending);
  }

  /** Called on every playback tick. */
  play(time: number): void {
    for (const media of this.#media) {
      const local = this.#local(media, time);
      if (local === undefined || (Number.isFinite(media.duration) && local >= media.duration)) {
        if (!media.paused) media.pause();
        continue;
      }
      if (media.paused) {
        // Starting takes a few frames; seeking again meanwhile would restart it on every tick.
        if (this.#starting.has(media)) continue;
        this.#starting.add(media);
        media.currentTime = local;
        media
          .play()
          .catch(() => undefined) // blocked autoplay: the frame keeps its own clock
          .finally(() => this.#starting.delete(media));
        continue;
      }
      const drift = media.currentTime - local;
      this.drift.push(Math.abs(drift));
      if (this.drift.length > 1000) this.drift.shift();
      if (Math.abs(drift) > MAX_DRIFT) {
        media.currentTime = local;
        media.playbackRate = 1;
      } else {
        // Steer with the rate rather than seek: a seek stalls decoding and is heard as a click.
        const step = Math.abs(drift) < SYNCED ? 0 : Math.max(-MAX_RATE_STEP, Math.min(MAX_RATE_STEP, drift * RATE_GAIN));
        const rate = 1 - step;
        if (media.playbackRate !== rate) media.playbackRate = rate;
      }
    }
  }

  pause(): void {
    for (const media of this.#media) {
      if (!media.paused) media.pause();
      media.playbackRate = 1;
    }
  }
}

function seeked(media: HTMLMediaElement): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      media.removeEventListener('seeked', done);
      media.removeEventListener('error', done);
      resolve();
    };
    const timer = setTimeout(done, SEEK_TIMEOUT_MS);
    media.addEventListener('seeked', done);
    media.addEventListener('error', done);
  });
}
