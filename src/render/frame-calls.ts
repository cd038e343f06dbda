import type { FxRendererHooks, FxRuntime } from '../runtime/frame/contract.js';
import type { PageAudioClip } from './audio.js';
import type { LoadedComposition } from './capture-worker.js';

/**
 * The renderer's calls into the frame runtime (`window.__fx`), typed against src/runtime/frame/contract.ts: a
 * renamed or retyped contract member fails the type-check here, not a render at run time. Each function runs in
 * the page (`BrowserPage.call` sends its source with a JSON argument), so it reads only its argument and page
 * globals, and names no inner function or arrow (tsx's `keepNames` would wrap it in a `__name` helper the page
 * does not have).
 */

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

/**
 * `<audio>` (unless muted) and `<video data-has-audio>` elements with their resolved `src`, volume and clip
 * window (`__fx.clipWindow`), in document order.
 */
export function listAudioClips(): PageAudioClip[] {
  const fx = window.__fx as RendererView;
  if (typeof fx.clipWindow !== 'function')
    throw new Error('the runtime has no clipWindow hook; rebuild "fx-runtime.js"');
  const clips: PageAudioClip[] = [];
  for (const media of document.querySelectorAll<HTMLMediaElement>('audio, video[data-has-audio]')) {
    if (media.localName === 'audio' && media.muted) continue;
    const span = fx.clipWindow(media);
    const src = media.currentSrc || media.src;
    if (!span || !src || span.end <= span.start) continue;
    clips.push({ src, start: span.start, end: span.end, volume: media.volume, tag: media.localName });
  }
  return clips;
}
