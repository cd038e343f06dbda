/**
 * The properties Web Animations (CSS animations and transitions included) set on each element right now. A
 * foreignObject image runs no animations of the frame's: these are inlined with their computed values of this
 * instant, everything else comes from the stylesheets as they are. Inlining only these, not every computed
 * property of every element, keeps a 1080p frame in milliseconds.
 */
const NOT_PROPERTIES = new Set(['offset', 'computedOffset', 'easing', 'composite']);

export function animatedProperties(): Map<Element, Set<string>> {
  const found = new Map<Element, Set<string>>();
  for (const animation of document.getAnimations()) {
    const effect = animation.effect;
    if (!(effect instanceof KeyframeEffect) || !effect.target || effect.pseudoElement) continue;
    let properties = found.get(effect.target);
    if (!properties) found.set(effect.target, (properties = new Set()));
    for (const keyframe of effect.getKeyframes())
      for (const key of Object.keys(keyframe)) if (!NOT_PROPERTIES.has(key)) properties.add(cssName(key));
  }
  return found;
}

/** `backgroundColor` → `background-color`; custom properties and `cssFloat` as CSS spells them. */
function cssName(key: string): string {
  if (key.startsWith('--')) return key;
  if (key === 'cssFloat') return 'float';
  if (key === 'cssOffset') return 'offset';
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
