import { Attr } from '../constants.js';
import { FrameAttr } from '../frame-config.js';
import { issue, type Issue } from '../issues.js';
import { resolveTiming, type TimedNode, type TimeWindow } from '../timing.js';
import type { SeekableTimeline } from './contract.js';
import { instanceSelector } from './roots.js';
import { tweenStarts } from './tween-starts.js';

const TIMED = `[${Attr.start}], [${Attr.duration}], [${Attr.compositionId}], video, audio`;

/**
 * The composition's timing, read from the live DOM after its scripts ran: the window of every clip (a timed
 * element: `data-start` or `data-duration`, media, sub-composition), which clip owns each element (for animation
 * offsets), and the GSAP-style timelines registered per composition and instance.
 *
 * GSAP's timelines remember how they got somewhere: a `to` tween takes its start values from the element when it
 * first renders, so where two tweens of one property overlap, the second starts from wherever the first was on the
 * last frame rendered before it. A render steps frame by frame, a preview jumps; so the first time the playhead moves
 * past a frame of the grid, the timelines are first rendered at the frames before it where tweens start, as a
 * render from frame 0 renders them (see {@link apply}). Render workers taking every other frame and chunks starting
 * mid-way then agree too.
 */
export class Timeline {
  readonly issues: Issue[] = [];
  #windows = new Map<Element, TimeWindow>();
  #hidden = new WeakSet<Element>();
  #instanceTimelines: ReadonlyMap<string, Record<string, SeekableTimeline>>;
  /** The last frame of the grid the timelines were stepped through (-1: none yet). */
  #steppedFrame = -1;
  /** See `#tweenFrames`. */
  #frames: readonly number[] | undefined;

  constructor(
    readonly root: Element,
    readonly duration: number,
    readonly fps: number,
    instanceTimelines: ReadonlyMap<string, Record<string, SeekableTimeline>>,
  ) {
    this.#instanceTimelines = instanceTimelines;
    const clips = [...root.querySelectorAll(TIMED)];
    // The root is node 0, clip i is node i + 1.
    const keyOf = new Map(clips.map((clip, index) => [clip, String(index + 1)]));
    const nodes: TimedNode[] = clips.map((clip, index) => {
      // The nearest timed ancestor inside the root, else the root.
      const parent = clip.parentElement?.closest(TIMED);
      return {
        key: String(index + 1),
        id: clip.id || clip.getAttribute(Attr.compositionId) || undefined,
        parent: (parent && keyOf.get(parent)) ?? '0',
        start: clip.getAttribute(Attr.start),
        duration: durationOf(clip, this.issues),
      };
    });
    const { windows, issues } = resolveTiming([{ key: '0' }, ...nodes], duration);
    this.issues.push(...issues);
    clips.forEach((clip, index) => this.#windows.set(clip, windows.get(String(index + 1))!));
  }

  /** The window of a clip in composition seconds, `undefined` for an element that is none. */
  windowOf(element: Element): TimeWindow | undefined {
    return this.#windows.get(element);
  }

  /** Absolute start of the clip that owns `element` (0 outside any clip). */
  startOf(element: Element | null | undefined): number {
    for (let node = element; node; node = node.parentElement) {
      const window = this.#windows.get(node);
      if (window) return window.start;
    }
    return 0;
  }

  /**
   * Shows clips inside their window, hides the rest, and moves every timeline and animation to `time`, first rendering
   * the timelines at the frames before `time` where tweens start that they have not been through yet.
   */
  apply(time: number): void {
    this.#stepUpTo(time);
    this.#applyWindows(time);
    this.#seekTimelines(time);
    for (const animation of document.getAnimations()) {
      const target = (animation.effect as KeyframeEffect | null)?.target ?? null;
      if (animation.playState !== 'paused') animation.pause();
      animation.currentTime = Math.max(0, (time - this.startOf(target)) * 1000);
    }
  }

  /**
   * Forgets the tween frames read and those stepped through: the next `apply` steps from the start again, through
   * the tweens there are by then (a rerun's scripts may add some from promise callbacks after its first apply).
   */
  stepAgain(): void {
    this.#frames = undefined;
    this.#steppedFrame = -1;
  }

  /**
   * Renders the clip windows and timelines at the frames tweens start at, after the last one stepped through and
   * before `time` (the frame at `time` itself is the caller's). CSS and Web Animations keep no such memory: they are
   * left out.
   */
  #stepUpTo(time: number): void {
    // The last frame strictly before `time`: the epsilon keeps a frame time such as 7 / 30 on its own frame.
    const before = Math.ceil(time * this.fps - 1e-6) - 1;
    if (before > this.#steppedFrame)
      for (const frame of this.#tweenFrames())
        if (frame > this.#steppedFrame && frame <= before) this.#renderFrame(frame);
    this.#steppedFrame = Math.max(this.#steppedFrame, Math.floor(time * this.fps + 1e-6));
  }

  /**
   * The frames where stepping matters, in order: a tween's values at any frame follow from the start values it took,
   * so it is enough to render the first frame at or after each tween's start, and the next (GSAP takes them once
   * the tween's time is past its start). Read once, at the first step: the timelines are built by then (ready).
   * Timelines that do not list their tweens (GSAP's `getChildren`) are trusted to show the same at a time however
   * they got there.
   */
  #tweenFrames(): readonly number[] {
    if (this.#frames) return this.#frames;
    const frames = new Set<number>();
    const last = Math.floor(this.duration * this.fps + 1e-6);
    const add = (timeline: SeekableTimeline | undefined, offset: number) => {
      for (const start of tweenStarts(timeline)) {
        const frame = Math.ceil((offset + start) * this.fps - 1e-6);
        // Frame 0 is the load's own.
        for (const stepped of [frame, frame + 1]) if (stepped >= 1 && stepped <= last) frames.add(stepped);
      }
    };
    add(window.__timelines?.[this.root.getAttribute(Attr.compositionId) ?? ''], 0);
    for (const [instance, registry] of this.#instanceTimelines) {
      const offset = this.startOf(this.root.querySelector(instanceSelector(instance)));
      for (const timeline of Object.values(registry)) add(timeline, offset);
    }
    return (this.#frames = [...frames].sort((a, b) => a - b));
  }

  #renderFrame(frame: number): void {
    this.#applyWindows(frame / this.fps);
    this.#seekTimelines(frame / this.fps);
  }

  #applyWindows(time: number): void {
    for (const [element, window] of this.#windows) {
      const hidden = time < window.start || time >= window.end;
      if (hidden === this.#hidden.has(element)) continue;
      if (hidden) {
        this.#hidden.add(element);
        element.setAttribute(FrameAttr.hidden, '');
      } else {
        this.#hidden.delete(element);
        element.removeAttribute(FrameAttr.hidden);
      }
    }
  }

  #seekTimelines(time: number): void {
    const topId = this.root.getAttribute(Attr.compositionId) ?? '';
    seekTimeline(window.__timelines?.[topId], time);
    for (const [instance, registry] of this.#instanceTimelines) {
      const local = time - this.startOf(this.root.querySelector(instanceSelector(instance)));
      for (const timeline of Object.values(registry)) seekTimeline(timeline, local);
    }
  }
}

function seekTimeline(timeline: SeekableTimeline | undefined, time: number): void {
  if (!timeline || typeof timeline.seek !== 'function') return;
  try {
    timeline.pause();
    // Events on (GSAP suppresses them by default): compositions that paint from `onUpdate` or `call()` callbacks
    // must show the same picture after a seek as when played to that time.
    timeline.seek(Math.max(0, time), false);
  } catch {
    // A broken timeline must not stop the others.
  }
}

/** `data-duration` (re-read now that scripts ran), else a media element's natural length. */
function durationOf(element: Element, issues: Issue[]): number | undefined {
  const raw = element.getAttribute(Attr.duration);
  if (raw !== null) {
    const seconds = Number(raw);
    if (raw.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds;
    issues.push(
      issue(
        'duration_invalid',
        [element.id || element.localName, Attr.duration],
        `"${Attr.duration}" must be a number of seconds, got "${raw}"`,
      ),
    );
  }
  if (element instanceof HTMLMediaElement && Number.isFinite(element.duration)) return element.duration;
  return undefined;
}
