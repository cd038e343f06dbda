/**
 * What a rasteriser cannot capture faithfully, found before any frame is captured: an export that would come out
 * with holes (a missing image, a blank WebGL canvas) is refused up front, naming what and where.
 */
import { CaptureRasteriser, CaptureRefusalCode, type CaptureRefusal } from '../../capture-codes.js';
import { isUnreadableWebgl } from './context-types.js';
import { CaptureResources, isInline } from './resources.js';
import { whereOf } from './where.js';

/** The root and what lies inside it, the root included. */
export const elementsOf = (root: Element): Element[] => [root, ...root.querySelectorAll('*')];

/** The checks that need no rasteriser set up (HTML-in-Canvas tests tainting itself once its canvas is in place). */
export function captureRefusals(
  rasteriser: CaptureRasteriser,
  root: Element,
  resources: CaptureResources,
): CaptureRefusal[] {
  const elements = elementsOf(root);
  const refusals = [...nestedFrames(elements), ...unreadableWebgl(elements)];
  // Chromium's drawElementImage leaves another origin's images out (blank, the canvas stays readable): those the
  // host did not send are refused as well. Whether the rest taints is HTML-in-Canvas's own canvas's test.
  refusals.push(...uncoveredImages(elements, resources, rasteriser));
  if (rasteriser === CaptureRasteriser.foreignObject) refusals.push(...unreadableVideos(elements));
  else refusals.push(...nestedCanvases(elements));
  return refusals;
}

function nestedFrames(elements: Element[]): CaptureRefusal[] {
  return elements
    .filter((element) => ['iframe', 'object', 'embed', 'frame'].includes(element.localName))
    .map((element) => ({
      code: CaptureRefusalCode.nestedFrame,
      message: `an <${element.localName}> shows a document of its own, which the frame cannot draw`,
      where: whereOf(element),
    }));
}

/**
 * Chromium 156's drawElementImage left a `<canvas>` inside the composition out (blank) in test/runtime/frame/capture/
 * media.test.ts, though a plain page draws one: until that is understood, HTML-in-Canvas is not for such a
 * composition (`auto` takes foreignObject, which draws a canvas's pixels).
 */
function nestedCanvases(elements: Element[]): CaptureRefusal[] {
  return elements
    .filter((element) => element instanceof HTMLCanvasElement)
    .map((canvas) => ({
      code: CaptureRefusalCode.rasteriserUnavailable,
      message: 'HTML-in-Canvas in this browser leaves a <canvas> inside the composition out; use foreignObject',
      where: whereOf(canvas),
    }));
}

function unreadableWebgl(elements: Element[]): CaptureRefusal[] {
  return elements
    .filter(
      (element): element is HTMLCanvasElement => element instanceof HTMLCanvasElement && isUnreadableWebgl(element),
    )
    .map((canvas) => ({
      code: CaptureRefusalCode.unreadableWebgl,
      message:
        'a WebGL canvas made without preserveDrawingBuffer: true is blank once composited, so a capture reads nothing; ' +
        'create its context with { preserveDrawingBuffer: true }',
      where: whereOf(canvas),
    }));
}

/** Every image URL an element shows: its source, an SVG `<image>`'s, its (computed, absolute) background images. */
export function imageUrlsOf(element: Element): string[] {
  const urls: string[] = [];
  if (element instanceof HTMLImageElement && (element.currentSrc || element.src))
    urls.push(element.currentSrc || element.src);
  if (element instanceof SVGImageElement && element.href.baseVal)
    urls.push(new URL(element.href.baseVal, element.baseURI).href);
  if (element instanceof HTMLVideoElement && element.poster && element.readyState < 2) urls.push(element.poster);
  const style = getComputedStyle(element);
  for (const value of [style.backgroundImage, style.maskImage, style.borderImageSource, style.listStyleImage])
    for (const [, , url] of (value ?? '').matchAll(/url\((["']?)(.*?)\1\)/g)) if (url) urls.push(url);
  return urls;
}

/**
 * Images neither inline nor sent by the host: foreignObject cannot inline them, HTML-in-Canvas would leave them out
 * (an `<img crossorigin>` it may draw: loaded with CORS, its pixels are the frame's to read).
 */
export function uncoveredImages(
  elements: Element[],
  resources: CaptureResources,
  rasteriser: CaptureRasteriser,
): CaptureRefusal[] {
  const corsImage = (element: Element) =>
    rasteriser === CaptureRasteriser.htmlInCanvas &&
    element instanceof HTMLImageElement &&
    element.crossOrigin !== null;
  return elements.flatMap((element) =>
    imageUrlsOf(element)
      .filter((url) => !resources.covers(url) && !corsImage(element))
      .map((url) => ({
        code: CaptureRefusalCode.crossOriginImage,
        message: `the image ${url} is not among the project's files sent for the capture, and the frame (an opaque origin) may not read its pixels`,
        where: whereOf(element),
      })),
  );
}

/** Videos whose frames cannot be read back: drawn once, a tainted canvas throws on reading. */
export function unreadableVideos(elements: Element[]): CaptureRefusal[] {
  return elements
    .filter((element): element is HTMLVideoElement => element instanceof HTMLVideoElement)
    .filter((video) => !videoReadable(video))
    .map((video) => ({
      code: CaptureRefusalCode.crossOriginVideo,
      message: `the video ${video.currentSrc || video.src} comes from another origin without CORS, so its frames cannot be read`,
      where: whereOf(video),
    }));
}

function videoReadable(video: HTMLVideoElement): boolean {
  const source = video.currentSrc || video.src;
  if (!source || isInline(source)) return true;
  // Without a frame yet a draw proves nothing: a video loaded without CORS is another origin's in an opaque frame.
  if (video.readyState < 2) return video.crossOrigin !== null;
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return false;
  try {
    context.drawImage(video, 0, 0, 1, 1);
    context.getImageData(0, 0, 1, 1);
    return true;
  } catch {
    return false;
  }
}
