import { untilEvent } from '../until-event.js';
import type { CaptureResources } from './resources.js';

/** How long a video given its bytes may take to show a frame again before the capture goes on without it. */
const RELOAD_MS = 10_000;

/**
 * Each `<video>` of the composition that plays a project file the host sent plays it again from a `blob:` URL of
 * this frame: loaded from the server it is another origin's (the frame's is opaque), whose frames neither
 * rasteriser may read; from the frame's own URL they are readable, and the capture check passes it. The runtime
 * keeps driving the same elements (the next seek sets their time).
 */
export async function playVideosFromResources(root: Element, resources: CaptureResources): Promise<void> {
  const reloads = [...root.querySelectorAll('video')].flatMap((video) => {
    const source = video.currentSrc || video.src;
    const local = source ? resources.blobUrl(source) : undefined;
    if (!local) return [];
    // The element's own `src` wins over its <source> children, which stay as the author wrote them.
    video.src = local;
    video.load();
    return [untilEvent(video, ['loadeddata', 'error'], RELOAD_MS)];
  });
  await Promise.all(reloads);
}
