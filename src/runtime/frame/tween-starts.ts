/** What is read of a GSAP animation (a timeline or a tween) to find where its tweens start; duck-typed. */
interface Animation {
  startTime(): number;
  timeScale?(): number;
  /** GSAP timelines: the direct children (`nested` false), tweens and timelines both. */
  getChildren?(nested: boolean, tweens: boolean, timelines: boolean): Animation[];
  /** GSAP tweens with a stagger or keyframes: the timeline of their sub-tweens. */
  timeline?: Animation;
}

/** Past this, a timeline is not looked into further (a hostile or runaway one must not stall a seek). */
const MAX_ANIMATIONS = 20_000;
const MAX_DEPTH = 16;

/**
 * When each tween of a GSAP-style timeline starts, in the timeline's own seconds: tweens of nested timelines and the
 * sub-tweens of staggered tweens too. Empty for a timeline that does not list its children (`getChildren`).
 */
export function tweenStarts(timeline: unknown): number[] {
  const starts: number[] = [];
  let seen = 0;
  const walk = (parent: Animation, offset: number, scale: number, depth: number): void => {
    if (depth > MAX_DEPTH || typeof parent.getChildren !== 'function') return;
    for (const child of parent.getChildren(false, true, true)) {
      if (++seen > MAX_ANIMATIONS) return;
      const start = offset + child.startTime() / scale;
      const childScale = scale * (child.timeScale?.() || 1);
      if (typeof child.getChildren === 'function') walk(child, start, childScale, depth + 1);
      else {
        starts.push(start);
        if (child.timeline) walk(child.timeline, start, childScale, depth + 1);
      }
    }
  };
  try {
    if (timeline && typeof timeline === 'object') walk(timeline as Animation, 0, 1, 0);
  } catch {
    // A timeline that cannot be read is sought as it is.
  }
  return starts.filter(Number.isFinite);
}
