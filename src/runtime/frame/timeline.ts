import { Attr } from '../constants.js';
import { FrameAttr } from '../frame-config.js';
import { issue, type Issue } from '../issues.js';
import { resolveTiming, type TimedNode, type TimeWindow } from '../timing.js';
import type { SeekableTimeline } from './contract.js';

const TIMED = `[${Attr.start}], [${Attr.duration}], [${Attr.compositionId}], video, audio`;

export interface Clip {
  readonly element: Element;
  readonly window: TimeWindow;
}

/**
 * The composition's timing, read from the live DOM after its scripts ran: clip windows, which clip owns each
 * element (for animation offsets), and the GSAP-style timelines registered per composition and instance.
 */
export class Timeline {
  readonly clips: Clip[] = [];
  readonly issues: Issue[] = [];
  #startOf = new WeakMap<Element, number>();
  #hidden = new WeakSet<Element>();

  constructor(
    readonly root: Element,
    readonly duration: number,
    private readonly instanceTimelines: ReadonlyMap<string, Record<string, SeekableTimeline>>,
  ) {
    const elements = [root, ...root.querySelectorAll(TIMED)];
    const keys = new Map(elements.map((element, index) => [element, String(index)]));
    const nodes: TimedNode[] = elements.map((element, index) => {
      const parent = index === 0 ? undefined : element.parentElement?.closest(TIMED);
      return {
        key: String(index),
        id: element.id || element.getAttribute(Attr.compositionId) || undefined,
        parent: index === 0 ? undefined : keys.get(parent && root.contains(parent) ? parent : root),
        start: index === 0 ? undefined : element.getAttribute(Attr.start),
        duration: index === 0 ? undefined : durationOf(element, this.issues),
      };
    });
    const { windows, issues } = resolveTiming(nodes, duration);
    this.issues.push(...issues);
    elements.forEach((element, index) => {
      const window = windows.get(String(index))!;
      this.#startOf.set(element, window.start);
      if (index > 0) this.clips.push({ element, window });
    });
  }

  /** Absolute start of the clip that owns `element` (0 outside any clip). */
  startOf(element: Element | null | undefined): number {
    for (let node = element; node; node = node.parentElement) {
      const start = this.#startOf.get(node);
      if (start !== undefined) return start;
    }
    return 0;
  }

  /** Shows clips inside their window, hides the rest, and moves every timeline and animation to `time`. */
  apply(time: number): void {
    for (const { element, window } of this.clips) {
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
    const topId = this.root.getAttribute(Attr.compositionId) ?? '';
    seekTimeline(window.__timelines?.[topId], time);
    for (const [instance, registry] of this.instanceTimelines) {
      const host = this.root.querySelector(`[${FrameAttr.instance}="${CSS.escape(instance)}"]`);
      const local = time - this.startOf(host);
      for (const timeline of Object.values(registry)) seekTimeline(timeline, local);
    }
    for (const animation of document.getAnimations()) {
      const target = (animation.effect as KeyframeEffect | null)?.target ?? null;
      if (animation.playState !== 'paused') animation.pause();
      animation.currentTime = Math.max(0, (time - this.startOf(target)) * 1000);
    }
  }
}

function seekTimeline(timeline: SeekableTimeline | undefined, time: number): void {
  if (!timeline || typeof timeline.seek !== 'function') return;
  try {
    timeline.pause();
    timeline.seek(Math.max(0, time), true);
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
    issues.push(issue('duration_invalid', [element.id || element.localName, Attr.duration], `"${Attr.duration}" must be a number of seconds, got "${raw}"`));
  }
  if (element instanceof HTMLMediaElement && Number.isFinite(element.duration)) return element.duration;
  return undefined;
}
