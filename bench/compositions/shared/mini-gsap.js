// A tiny GSAP-like timeline for the benchmark compositions (GSAP is not a dependency of this repo). It offers what
// HyperFrames-style authoring and both players use: `gsap.timeline({ paused })` with `to`, `from`, `fromTo`, `set`,
// `add` (nested timelines) and positions (seconds, "<", ">", "+=n", "-=n", "<n"), eases, `stagger`, and the
// seekable surface (`seek`, `time`, `totalTime`, `duration`, `progress`, `pause`, `play`, `paused`, `timeScale`).
// Rendering is deterministic: a seek computes every animated property at that time from the timeline alone.
(function () {
  'use strict';
  if (window.gsap) return;

  const EASES = {
    none: (t) => t,
    linear: (t) => t,
    'power1.in': (t) => t * t,
    'power1.out': (t) => 1 - (1 - t) * (1 - t),
    'power1.inOut': (t) => (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)),
    'power2.in': (t) => t * t * t,
    'power2.out': (t) => 1 - (1 - t) ** 3,
    'power2.inOut': (t) => (t < 0.5 ? 4 * t ** 3 : 1 - 4 * (1 - t) ** 3),
    'power3.out': (t) => 1 - (1 - t) ** 4,
    'sine.inOut': (t) => -(Math.cos(Math.PI * t) - 1) / 2,
    'back.out': (t) => 1 + 2.70158 * (t - 1) ** 3 + 1.70158 * (t - 1) ** 2,
  };
  const easeOf = (name) => EASES[name ?? 'power1.out'] ?? EASES['power1.out'];

  // Properties that are not CSS: the timing and control fields of a tween's vars.
  const CONTROL = new Set(['duration', 'ease', 'stagger', 'delay', 'onUpdate', 'onComplete', 'immediateRender', 'overwrite']);
  const TRANSFORM = { x: 0, y: 0, rotation: 0, scale: 1 };
  const PX = new Set(['width', 'height', 'left', 'top', 'right', 'bottom', 'fontSize', 'borderRadius', 'letterSpacing']);

  function toTargets(targets) {
    if (targets == null) return [];
    if (typeof targets === 'string') return [...document.querySelectorAll(targets)];
    if (targets instanceof Element) return [targets];
    if (typeof targets.length === 'number') return [...targets].filter((target) => target instanceof Element);
    return []; // `{}`: a tween that only extends the timeline (`tl.set({}, {}, 10)`)
  }

  function parseColor(text) {
    const hex = /^#([0-9a-f]{6})$/i.exec(String(text).trim());
    if (hex) {
      const value = Number.parseInt(hex[1], 16);
      return [value >> 16, (value >> 8) & 255, value & 255, 1];
    }
    const rgb = /^rgba?\(([^)]+)\)$/.exec(String(text).trim());
    if (!rgb) return undefined;
    const parts = rgb[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts[3] ?? 1];
  }

  const isColorProperty = (property) => /color$/i.test(property);

  // Per element: the transform parts tweens write, composed into one `transform`.
  const transforms = new WeakMap();
  function writeTransform(element, property, value) {
    const parts = transforms.get(element) ?? { ...TRANSFORM };
    transforms.set(element, parts);
    parts[property] = value;
    element.style.transform = `translate(${parts.x}px, ${parts.y}px) rotate(${parts.rotation}deg) scale(${parts.scale})`;
  }

  function readBase(element, property) {
    if (property in TRANSFORM) return transforms.get(element)?.[property] ?? TRANSFORM[property];
    const computed = getComputedStyle(element)[property];
    if (isColorProperty(property)) return parseColor(computed) ?? [0, 0, 0, 0];
    const number = Number.parseFloat(computed);
    return Number.isFinite(number) ? number : 0;
  }

  function write(element, property, value) {
    if (property in TRANSFORM) return writeTransform(element, property, value);
    if (isColorProperty(property)) {
      const [r, g, b, a] = value.map((channel, index) => (index < 3 ? Math.round(channel) : channel));
      element.style[property] = `rgba(${r}, ${g}, ${b}, ${a})`;
      return;
    }
    element.style[property] = PX.has(property) ? `${value}px` : String(value);
  }

  const parseValue = (property, value) => (isColorProperty(property) ? parseColor(value) : Number(value));
  const mix = (from, to, progress) =>
    Array.isArray(from) ? from.map((channel, index) => channel + (to[index] - channel) * progress) : from + (to - from) * progress;

  /** One property of one element animated over [start, start + duration), in timeline-local seconds. */
  class Track {
    constructor(element, property, kind, start, duration, ease, from, to) {
      Object.assign(this, { element, property, kind, start, duration, ease, from, to });
    }
  }

  class Timeline {
    constructor(vars = {}) {
      this.vars = vars;
      this.data = vars.data;
      this.labels = {};
      this._children = []; // { start, kind: 'tween' | 'timeline', tracks?, timeline?, duration }
      this._time = 0;
      this._paused = vars.paused === true;
      this._scale = 1;
      this._last = { start: 0, end: 0 };
      this._resolved = undefined; // tracks grouped by element+property, with from/to filled in
      this._frame = 0;
      if (!this._paused) queueMicrotask(() => !this._paused && this._startClock());
    }

    _position(position) {
      const end = this.duration();
      if (position === undefined || position === null) return end;
      if (typeof position === 'number') return Math.max(0, position);
      const text = String(position).trim();
      const relative = /^(<|>)?\s*([+-]=)?\s*(-?\d*\.?\d+)?$/.exec(text);
      if (!relative) return end;
      const [, anchor, operator, amount] = relative;
      const offset = amount === undefined ? 0 : Number(amount) * (operator === '-=' ? -1 : 1);
      const base = anchor === '<' ? this._last.start : anchor === '>' ? this._last.end : operator ? end : 0;
      return Math.max(0, base + offset);
    }

    _push(child) {
      this._children.push(child);
      this._last = { start: child.start, end: child.start + child.duration };
      this._resolved = undefined;
      return this;
    }

    _tween(kind, targets, fromVars, toVars, position) {
      const vars = toVars ?? fromVars;
      const elements = toTargets(targets);
      const duration = kind === 'set' ? 0 : Number(vars.duration ?? 0.5);
      const stagger = Number(vars.stagger ?? 0);
      const start = this._position(position) + Number(vars.delay ?? 0);
      const ease = easeOf(vars.ease);
      const tracks = [];
      elements.forEach((element, index) => {
        const at = start + index * stagger;
        for (const property of Object.keys(vars)) {
          if (CONTROL.has(property)) continue;
          const given = parseValue(property, vars[property]);
          const from = kind === 'fromTo' ? parseValue(property, fromVars[property]) : kind === 'from' ? given : undefined;
          const to = kind === 'from' ? undefined : given;
          tracks.push(new Track(element, property, kind, at, duration, ease, from, to));
        }
      });
      const span = duration + Math.max(0, elements.length - 1) * stagger;
      return this._push({ start, kind: 'tween', tracks, duration: span });
    }

    to(targets, vars, position) {
      return this._tween('to', targets, vars, undefined, position);
    }
    from(targets, vars, position) {
      return this._tween('from', targets, vars, undefined, position);
    }
    fromTo(targets, fromVars, toVars, position) {
      return this._tween('fromTo', targets, fromVars, toVars, position);
    }
    set(targets, vars, position) {
      return this._tween('set', targets, vars, undefined, position);
    }
    add(child, position) {
      if (child instanceof Timeline) {
        child._parent = this;
        child.pause();
        return this._push({ start: this._position(position), kind: 'timeline', timeline: child, duration: child.duration() });
      }
      if (typeof child === 'function') return this._push({ start: this._position(position), kind: 'call', call: child, duration: 0 });
      return this;
    }
    call(callback, args, position) {
      return this.add(() => callback(...(args ?? [])), position);
    }

    // Chains of tracks per element+property, in start order, with each track's start and end value resolved:
    // a `to` starts from whatever the chain shows at its start, a `from` ends at it.
    _resolve() {
      if (this._resolved) return this._resolved;
      const chains = new Map();
      for (const child of this._children) {
        if (child.kind !== 'tween') continue;
        for (const track of child.tracks) {
          let byProperty = chains.get(track.element);
          if (!byProperty) chains.set(track.element, (byProperty = new Map()));
          const chain = byProperty.get(track.property) ?? [];
          byProperty.set(track.property, chain);
          chain.push(track);
        }
      }
      const resolved = [];
      for (const [element, byProperty] of chains) {
        for (const [property, chain] of byProperty) {
          chain.sort((a, b) => a.start - b.start);
          const base = readBase(element, property);
          for (let index = 0; index < chain.length; index++) {
            const track = chain[index];
            const before = index === 0 ? base : valueAt(chain.slice(0, index), base, track.start);
            if (track.from === undefined) track.from = track.kind === 'set' ? track.to : before;
            if (track.to === undefined) track.to = before;
          }
          resolved.push({ element, property, chain, base });
        }
      }
      return (this._resolved = resolved);
    }

    _render(time, suppressEvents) {
      for (const { element, property, chain, base } of this._resolve()) write(element, property, valueAt(chain, base, time));
      for (const child of this._children) {
        if (child.kind === 'timeline') child.timeline._render(Math.min(Math.max(time - child.start, 0), child.duration), suppressEvents);
      }
      if (!suppressEvents) this.vars.onUpdate?.call(this);
    }

    seek(time, suppressEvents = true) {
      this._time = Math.min(Math.max(Number(time) || 0, 0), this.duration());
      this._anchor = undefined;
      this._render(this._time, suppressEvents);
      return this;
    }
    time(time, suppressEvents) {
      return time === undefined ? this._time : this.seek(time, suppressEvents);
    }
    totalTime(time, suppressEvents) {
      return this.time(time, suppressEvents);
    }
    duration() {
      return this._children.reduce((end, child) => Math.max(end, child.start + (child.kind === 'timeline' ? child.timeline.duration() : child.duration)), 0);
    }
    totalDuration() {
      return this.duration();
    }
    progress(value) {
      const duration = this.duration();
      return value === undefined ? (duration > 0 ? this._time / duration : 0) : this.seek(value * duration);
    }
    timeScale(scale) {
      if (scale === undefined) return this._scale;
      this._scale = scale;
      return this;
    }
    paused(value) {
      if (value === undefined) return this._paused;
      return value ? this.pause() : this.play();
    }
    isActive() {
      return !this._paused && this._time < this.duration();
    }
    getChildren() {
      return this._children.filter((child) => child.kind === 'timeline').map((child) => child.timeline);
    }
    eventCallback(type, callback) {
      if (callback === undefined) return this.vars[type];
      this.vars[type] = callback;
      return this;
    }
    invalidate() {
      this._resolved = undefined;
      return this;
    }
    startTime() {
      return 0;
    }
    endTime() {
      return this.duration();
    }

    pause() {
      this._paused = true;
      cancelAnimationFrame(this._frame);
      return this;
    }
    play(from) {
      if (from !== undefined && from !== null) this.seek(from);
      if (!this._paused) return this;
      this._paused = false;
      this._startClock();
      return this;
    }
    restart() {
      this.seek(0);
      return this.play();
    }
    kill() {
      return this.pause();
    }

    // Playing on its own (GSAP's ticker): advance with the wall clock on every animation frame.
    _startClock() {
      if (this._time >= this.duration()) this._time = 0;
      this._anchor = undefined;
      const tick = (now) => {
        if (this._paused) return;
        this._anchor ??= { wall: now, time: this._time };
        const time = this._anchor.time + ((now - this._anchor.wall) / 1000) * this._scale;
        const end = this.duration();
        this._time = Math.min(time, end);
        this._render(this._time, false);
        if (time >= end) {
          this._paused = true;
          this.vars.onComplete?.call(this);
          return;
        }
        this._frame = requestAnimationFrame(tick);
      };
      this._frame = requestAnimationFrame(tick);
    }
  }

  function valueAt(chain, base, time) {
    let current;
    for (const track of chain) {
      if (track.start > time) break;
      current = track;
    }
    if (!current) {
      const first = chain[0];
      // `from` and `fromTo` show their start values right away (GSAP's immediateRender).
      return first && first.kind !== 'to' ? first.from : base;
    }
    if (current.duration === 0 || time >= current.start + current.duration) return current.to;
    return mix(current.from, current.to, current.ease((time - current.start) / current.duration));
  }

  window.gsap = {
    version: 'mini-1',
    timeline: (vars) => new Timeline(vars),
  };
})();
