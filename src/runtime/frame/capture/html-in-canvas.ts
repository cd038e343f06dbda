/**
 * The HTML-in-Canvas rasteriser: the browser's own paint of the composition, drawn into a canvas. Chromium 156
 * has it behind `--enable-blink-features=CanvasDrawElement`, in this shape: a `<canvas layoutsubtree>` lays out
 * and paints its direct children (not onto the page), fires `paint` once it did (`requestPaint()` asks for one),
 * and `ctx.drawElementImage(child, dx, dy[, dw, dh])` draws a child as last painted, in canvas pixels.
 *
 * The composition root is moved under such a canvas (in a box of the composition's size) once, when capture
 * starts: an export frame is a document of its own. What could break: rules that select the root by its parent
 * (`body > …`, `:first-child` among the body's children), scripts that look the root up by its parent, and an
 * animated page background (the box takes the document's background as it is when capture starts).
 */
import { CaptureRasteriser, CaptureRefusalCode, type CaptureRefusal } from '../../capture-codes.js';
import { elementsOf, imageUrlsOf, unreadableVideos } from './capture-check.js';
import { clearToBackdrop, placeInto } from './geometry.js';
import type { CaptureTarget, Rasteriser } from './rasteriser.js';
import { isInline, type CaptureResources } from './resources.js';
import { whereOf } from './where.js';

/** A paint that never comes (a hidden frame) must fail the capture, not hang the export. */
const PAINT_TIMEOUT_MS = 5000;

interface DrawingContext extends CanvasRenderingContext2D {
  drawElementImage(element: Element, dx: number, dy: number, dw?: number, dh?: number): void;
}
interface LayoutCanvas extends HTMLCanvasElement {
  layoutSubtree: boolean;
  requestPaint(): void;
}

/** Feature detection, not the browser's name: the flag may be on, or the API shipped. */
export function htmlInCanvasAvailable(): boolean {
  return (
    typeof CanvasRenderingContext2D !== 'undefined' &&
    'drawElementImage' in CanvasRenderingContext2D.prototype &&
    'requestPaint' in HTMLCanvasElement.prototype
  );
}

export class HtmlInCanvasRasteriser implements Rasteriser {
  readonly name = CaptureRasteriser.htmlInCanvas;
  readonly #target: CaptureTarget;
  readonly #canvas: LayoutCanvas;
  /** The canvas's child that holds the root: what is drawn. */
  readonly #viewport: HTMLElement;
  readonly #context: DrawingContext;
  readonly #restore: () => void;

  private constructor(
    target: CaptureTarget,
    canvas: LayoutCanvas,
    viewport: HTMLElement,
    context: DrawingContext,
    restore: () => void,
  ) {
    this.#target = target;
    this.#canvas = canvas;
    this.#viewport = viewport;
    this.#context = context;
    this.#restore = restore;
  }

  /**
   * Moves the root under a layout canvas and tests that a drawing of it stays readable; else puts the root back
   * and answers with what taints it. Images the host sent are given `blob:` URLs first (the frame's own origin).
   */
  static async start(
    target: CaptureTarget,
    resources: CaptureResources,
  ): Promise<HtmlInCanvasRasteriser | CaptureRefusal[]> {
    const { root, size, output } = target;
    const canvas = document.createElement('canvas') as LayoutCanvas;
    canvas.setAttribute('layoutsubtree', '');
    canvas.layoutSubtree = true;
    canvas.width = output.width;
    canvas.height = output.height;
    // The composition's CSS size, so it lays out as on the page; the bitmap is the output's pixels.
    canvas.style.cssText = `display:block;width:${size.width}px;height:${size.height}px`;
    const context = canvas.getContext('2d') as DrawingContext | null;
    if (!context) return [unavailable('no 2D context for the layout canvas')];
    // The canvas draws its direct children by their own box: the root goes in a box of the composition's size that
    // holds its positioned descendants as the viewport does on the page (a root of height 0 whose content is
    // absolutely placed, common in blocks, was drawn as nothing).
    const viewport = document.createElement('div');
    viewport.style.cssText = `position:relative;contain:layout;width:${size.width}px;height:${size.height}px`;
    paintDocumentBackground(viewport);
    const parent = root.parentNode;
    const next = root.nextSibling;
    parent?.insertBefore(canvas, root);
    viewport.append(root);
    canvas.append(viewport);
    const restore = () => {
      parent?.insertBefore(root, next);
      canvas.remove();
    };
    // The root's and the box's (the page background's) images alike.
    await useBlobUrls(viewport, resources);
    const rasteriser = new HtmlInCanvasRasteriser(target, canvas, viewport, context, restore);
    try {
      await rasteriser.#painted(() => rasteriser.#draw());
      context.getImageData(0, 0, 1, 1);
      return rasteriser;
    } catch (error) {
      restore();
      if (!(error instanceof DOMException && error.name === 'SecurityError')) throw error;
      return taintRefusals(root, resources);
    }
  }

  async capture(): Promise<ImageData> {
    await this.#painted(() => this.#draw());
    return this.#context.getImageData(0, 0, this.#canvas.width, this.#canvas.height);
  }

  dispose(): void {
    this.#restore();
  }

  #draw(): void {
    const { size, output } = this.#target;
    const place = placeInto(size, output);
    const context = this.#context;
    clearToBackdrop(context, this.#target.transparent);
    context.drawElementImage(this.#viewport, place.x, place.y, place.width, place.height);
  }

  /** Runs `draw` in the canvas's next `paint` event: what it draws is then the state as it is now. */
  #painted(draw: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the layout canvas did not paint')), PAINT_TIMEOUT_MS);
      this.#canvas.addEventListener(
        'paint',
        () => {
          clearTimeout(timer);
          try {
            draw();
            resolve();
          } catch (error) {
            reject(error);
          }
        },
        { once: true },
      );
      this.#canvas.requestPaint();
    });
  }
}

/** What a background is made of, as computed: enough to paint it again on another box. */
const BACKGROUND_PROPERTIES = ['color', 'image', 'position', 'size', 'repeat', 'origin', 'clip'] as const;

/**
 * The page's own background (the root element's, else the body's: what the browser paints behind everything) on
 * `box`: the canvas draws only its children, and the document's background lies outside them.
 */
function paintDocumentBackground(box: HTMLElement): void {
  const painted = (element: Element | null) => {
    if (!element) return undefined;
    const style = getComputedStyle(element);
    const clear = style.backgroundImage === 'none' && /^(transparent|rgba\(0, 0, 0, 0\))$/.test(style.backgroundColor);
    return clear ? undefined : style;
  };
  const style = painted(document.documentElement) ?? painted(document.body);
  if (!style) return;
  for (const part of BACKGROUND_PROPERTIES) {
    const name = `background-${part}`;
    box.style.setProperty(name, style.getPropertyValue(name));
  }
}

/**
 * Images and backgrounds of the project by their `blob:` URLs: the frame's own origin, so they are drawn (another
 * origin's are left out) and taint nothing. A background is set inline: animations of it still win.
 */
async function useBlobUrls(root: Element, resources: CaptureResources): Promise<void> {
  const swapped: HTMLImageElement[] = [];
  for (const element of elementsOf(root)) {
    if (element instanceof HTMLImageElement) {
      const source = element.currentSrc || element.src;
      const blob = source && !isInline(source) ? resources.blobUrl(source) : undefined;
      if (!blob) continue;
      element.removeAttribute('srcset');
      element.src = blob;
      swapped.push(element);
    }
    const background = getComputedStyle(element).backgroundImage;
    if (!(element instanceof HTMLElement) || !background.includes('url(')) continue;
    const replaced = background.replace(/url\((["']?)(.*?)\1\)/g, (whole, _quote, url: string) => {
      const blob = isInline(url) ? undefined : resources.blobUrl(url);
      if (!blob) return whole;
      // Decoded before the first paint: a background still loading is painted as nothing.
      const image = new Image();
      image.src = blob;
      swapped.push(image);
      return `url("${blob}")`;
    });
    if (replaced !== background) element.style.backgroundImage = replaced;
  }
  await Promise.all(swapped.map((image) => image.decode().catch(() => undefined)));
}

/** What may have tainted the canvas: images neither inline nor sent, and videos that cannot be read. */
function taintRefusals(root: Element, resources: CaptureResources): CaptureRefusal[] {
  const elements = elementsOf(root);
  const refusals: CaptureRefusal[] = elements.flatMap((element) =>
    imageUrlsOf(element)
      .filter((url) => !isInline(url))
      .filter((url) => !(element instanceof HTMLImageElement) || !resources.covers(url))
      .map((url) => ({
        code: CaptureRefusalCode.crossOriginImage,
        message: `the image ${url} comes from another origin without CORS: drawn, it makes the capture canvas unreadable`,
        where: whereOf(element),
      })),
  );
  refusals.push(...unreadableVideos(elements));
  return refusals.length
    ? refusals
    : [
        {
          code: CaptureRefusalCode.crossOriginImage,
          message:
            'something in the composition comes from another origin: drawn, it makes the capture canvas unreadable',
          where: '',
        },
      ];
}

function unavailable(message: string): CaptureRefusal {
  return { code: CaptureRefusalCode.rasteriserUnavailable, message, where: '' };
}
