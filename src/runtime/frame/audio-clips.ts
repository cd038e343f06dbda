import type { AudioClip } from './contract.js';

/**
 * The composition's sound, as both the server renderer and in-browser export mix it: `<audio>` (unless muted) and
 * `<video data-has-audio>` elements with their resolved `src`, volume and clip window, in document order.
 */
export function audioClips(clipWindow: (element: Element) => { start: number; end: number } | undefined): AudioClip[] {
  const clips: AudioClip[] = [];
  for (const media of document.querySelectorAll<HTMLMediaElement>('audio, video[data-has-audio]')) {
    if (media.localName === 'audio' && media.muted) continue;
    const span = clipWindow(media);
    const src = media.currentSrc || media.src;
    if (!span || !src || span.end <= span.start) continue;
    clips.push({ src, start: span.start, end: span.end, volume: media.volume, tag: media.localName });
  }
  return clips;
}
