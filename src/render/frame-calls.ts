import type { AudioClip, FxRendererHooks, FxRuntime } from '../runtime/frame/contract.js';
import type { Issue } from '../runtime/issues.js';

/**
 * The renderer's calls into the frame runtime (`window.__fx`), typed against src/runtime/frame/contract.ts: a
 * renamed or retyped contract member fails the type-check here, not a render at run time. Each function runs in
 * the page (`BrowserPage.call` sends its source with a JSON argument), so it reads only its argument and page
 * globals, and names no inner function or arrow (tsx's `keepNames` would wrap it in a `__name` helper the page
 * does not have). The shapes of their answers are said here too.
 */

/** What the runtime reports once the compiled document is ready. */
export interface LoadedComposition {
  readonly duration: number;
  readonly fps: number;
  /** Bindings the runtime refused (a value that was not applied must not pass silently). */
  readonly bindingIssues: Issue[];
  /** Why `duration` is 0 when it was to come from the registered timeline (see `FxRendererHooks.durationIssue`). */
  readonly durationIssue?: Issue | undefined;
}

/** An audible media element as the page resolved it, with its clip window in composition seconds. */
/** One sound of the composition, as the runtime lists it (`__fx.audioClips`). */
export type PageAudioClip = AudioClip;

/** `window.__fx` with the renderer's hooks, which an outdated `fx-runtime.js` may lack. */
type RendererView = FxRuntime & Partial<FxRendererHooks>;

/** Waits for `__fx.ready`; the composition's timing and the bindings the runtime refused. */
export async function awaitReady(): Promise<LoadedComposition> {
  const fx = window.__fx as RendererView | undefined;
  if (!fx) throw new Error('the runtime did not start (is "fx-runtime.js" reachable?)');
  await fx.ready;
  return {
    duration: fx.duration,
    fps: fx.fps,
    bindingIssues: fx.bindingIssues?.() ?? [],
    durationIssue: fx.durationIssue?.(),
  };
}

/**
 * Seeks to `seconds`; resolves once the frame is ready to paint and no media element is still seeking (the
 * runtime's seek stops waiting for one after a few seconds; a capture then would show it elsewhere).
 */
export async function seekTo(seconds: number): Promise<number> {
  const fx = window.__fx as RendererView;
  const time = await fx.seek(seconds);
  if (typeof fx.mediaSeeked === 'function') await fx.mediaSeeked();
  return time;
}

/** The composition's sound clips, from the runtime: the same plan an in-browser export mixes. */
export function listAudioClips(): PageAudioClip[] {
  const fx = window.__fx as RendererView;
  if (typeof fx.audioClips !== 'function')
    throw new Error('the runtime has no audioClips hook; rebuild "fx-runtime.js"');
  return fx.audioClips();
}
