/**
 * Shared test tools for `<fx-composition>`: mounting, awaiting events with a deadline, building composition
 * markup, asking the (opaque-origin) frame about its state through test/fixtures/probe.js, and reading pixels of
 * the page through the `fx-screenshot` server command (web-test-runner.config.mjs).
 */
import { executeServerCommand } from '@web/test-runner-commands';
import type { FxVariablesChangeDetail } from '../../src/elements/internal/events.js';
import '../../src/elements/composition/define.js';
import { FxComposition } from '../../src/elements/composition/fx-composition.js';

export const RUNTIME_URL = new URL('/dist/fx-runtime.js', location.href).href;
FxComposition.runtimeUrl = RUNTIME_URL;

export const PROBE_SCRIPT = '<script src="/test/fixtures/probe.js"></script>';
export const DEFAULT_WAIT_MS = 8000;

const mounted = new Set<Element>();

/** Creates an `<fx-composition>` with `attributes` (and `srcdoc` set as a property), appends it, tracks it for cleanup. */
export function mount(
  attributes: Record<string, string | true>,
  options: { srcdoc?: string; parent?: ParentNode; style?: string } = {},
): FxComposition {
  const element = document.createElement('fx-composition');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value === true ? '' : value);
  element.setAttribute('style', options.style ?? 'display:block;width:320px;height:180px');
  if (options.srcdoc !== undefined) element.srcdoc = options.srcdoc;
  return track(options.parent ?? document.body, element);
}

/** Appends `element` and removes it after the test. */
export function track<T extends Element>(parent: ParentNode, element: T): T {
  parent.append(element);
  mounted.add(element);
  return element;
}

afterEach(() => {
  for (const element of mounted) element.remove();
  mounted.clear();
});

/** The next `name` event of `target`, or a rejection naming what did not come within `ms`. */
export function nextEvent<T extends Event = Event>(
  target: EventTarget,
  name: string,
  ms = DEFAULT_WAIT_MS,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(name, onEvent);
      reject(new Error(`no "${name}" event within ${ms} ms`));
    }, ms);
    const onEvent = (event: Event) => {
      clearTimeout(timer);
      target.removeEventListener(name, onEvent);
      resolve(event as T);
    };
    target.addEventListener(name, onEvent);
  });
}

/** Resolves once `check()` is truthy (polled; an async check is awaited), or rejects after `ms` with `what`. */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  ms = DEFAULT_WAIT_MS,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Names of `names` events fired on `target`, in order, from now on. */
export function recordEvents(target: EventTarget, names: readonly string[]): string[] {
  const seen: string[] = [];
  for (const name of names) target.addEventListener(name, () => seen.push(name));
  return seen;
}

/** Resolves when the element is ready (at once if it already is). */
export async function whenReady(element: FxComposition, ms = DEFAULT_WAIT_MS): Promise<FxComposition> {
  if (!element.ready) await nextEvent(element, 'ready', ms);
  return element;
}

/** Sets `variables` and resolves with the detail of the `variableschange` that answers it. */
export async function updateVariables(
  element: FxComposition,
  values: Record<string, unknown>,
): Promise<FxVariablesChangeDetail> {
  const change = nextEvent<CustomEvent<FxVariablesChangeDetail>>(element, 'variableschange');
  element.variables = values;
  return (await change).detail;
}

/** The composition iframe the element shows now (a reload swaps it). */
export function frameOf(element: Element): HTMLIFrameElement {
  const iframe = element.shadowRoot?.querySelector<HTMLIFrameElement>('iframe:not(.incoming)');
  if (!iframe) throw new Error('the element shows no composition frame');
  return iframe;
}

export interface CompositionOptions {
  readonly id?: string;
  readonly width?: number;
  readonly height?: number;
  readonly duration?: number;
  /** Declarations written on `<html>`. */
  readonly variables?: readonly Record<string, unknown>[];
  readonly head?: string;
  readonly body?: string;
  /** Include the probe script (default true). */
  readonly probe?: boolean;
}

/** Escapes text for a single-quoted attribute. */
export const attribute = (value: unknown) =>
  (typeof value === 'string' ? value : JSON.stringify(value)).replace(/&/g, '&amp;').replace(/'/g, '&#39;');

/** A full composition document with a root `#root`, a black background and the probe. */
export function compositionHtml(options: CompositionOptions = {}): string {
  const {
    id = 'main',
    width = 320,
    height = 180,
    duration = 2,
    variables,
    head = '',
    body = '',
    probe = true,
  } = options;
  const declarations = variables ? ` data-composition-variables='${attribute(variables)}'` : '';
  return `<!doctype html><html${declarations}><head>${probe ? PROBE_SCRIPT : ''}
<style>html, body { margin: 0; background: #000; } #root { position: relative; width: ${width}px; height: ${height}px; overflow: hidden; }</style>
${head}</head><body><div id="root" data-composition-id="${id}" data-width="${width}" data-height="${height}" data-duration="${duration}">${body}</div></body></html>`;
}

let probeIds = 0;

/** Asks the probe inside a composition frame (`frame` is its window); the answer comes back to this window. */
export function ask<T = unknown>(
  frame: Window,
  question: Record<string, unknown> & { ask: string },
  ms = 3000,
): Promise<T> {
  const id = ++probeIds;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      window.removeEventListener('message', onMessage);
      reject(new Error(`the probe did not answer ${JSON.stringify(question)}`));
    }, ms);
    const onMessage = (event: MessageEvent) => {
      if (event.data?.fxProbeAnswer !== id) return;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      resolve(event.data.value as T);
    };
    window.addEventListener('message', onMessage);
    frame.postMessage({ fxProbe: id, ...question }, '*');
  });
}

/** {@link ask} the frame an element shows now. */
export function probe<T = unknown>(element: Element, question: Record<string, unknown> & { ask: string }): Promise<T> {
  return ask<T>(frameOf(element).contentWindow!, question);
}

/**
 * {@link probe} again until `accept` holds, and the last answer. The probe's window messages and the element's
 * channel (a MessagePort) are not ordered with each other: Firefox may answer the probe before it handles a
 * message the element posted first.
 */
export async function probeUntil<T>(
  element: Element,
  question: Record<string, unknown> & { ask: string },
  accept: (value: T) => boolean,
  ms = 2000,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe<T>(element, question);
    if (accept(value) || performance.now() > deadline) return value;
    await sleep(20);
  }
}

export type Rgba = readonly [number, number, number, number];

/** A screenshot of a page area (CSS pixels, device pixel ratio 1) with a pixel reader. */
export async function screenshot(rect: {
  x: number;
  y: number;
  width: number;
  height: number;
}): Promise<(x: number, y: number) => Rgba> {
  const clip = {
    x: Math.round(rect.x),
    y: Math.round(rect.y),
    width: Math.round(rect.width),
    height: Math.round(rect.height),
  };
  const shot = await executeServerCommand<{ base64: string; x: number; y: number }, typeof clip>('fx-screenshot', clip);
  if (typeof shot?.base64 !== 'string') throw new Error('the fx-screenshot command is not installed');
  const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${shot.base64}`)).blob());
  // The PNG may show more than the clip (a WebDriver screenshot is the viewport): draw the clip's part only.
  const canvas = new OffscreenCanvas(clip.width, clip.height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, shot.x - clip.x, shot.y - clip.y);
  const { data, width } = context.getImageData(0, 0, clip.width, clip.height);
  return (x, y) => {
    const at = (Math.round(y) * width + Math.round(x)) * 4;
    return [data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!];
  };
}

/** A screenshot of the element's box, with (0, 0) at its top-left corner. */
export async function pixelsOf(element: Element): Promise<(x: number, y: number) => Rgba> {
  const box = element.getBoundingClientRect();
  return screenshot({ x: box.left, y: box.top, width: box.width, height: box.height });
}

/**
 * {@link pixelsOf} once `shows` holds of them, the screenshot taken again for up to `ms`, else the last one: for
 * tests of *which* frame shows. A busy machine can put a seek's picture on screen a frame or two after its answer
 * (Chromium composites the frame's process's paint later), and a wrong frame never comes right. How soon the
 * picture shows is measured by `npm run bench player`, not asserted here.
 */
export async function pixelsShowing(
  element: Element,
  shows: (pixel: (x: number, y: number) => Rgba) => boolean,
  ms = 1000,
): Promise<(x: number, y: number) => Rgba> {
  const until = performance.now() + ms;
  for (;;) {
    const pixel = await pixelsOf(element);
    if (shows(pixel) || performance.now() > until) return pixel;
    await sleep(50);
  }
}

/** Uncaught errors and unhandled rejections of the host page while a test runs. */
export function watchUncaught(): { readonly errors: string[]; stop(): void } {
  const errors: string[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.message);
  const onRejection = (event: PromiseRejectionEvent) => errors.push(String(event.reason));
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return {
    errors,
    stop() {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    },
  };
}
