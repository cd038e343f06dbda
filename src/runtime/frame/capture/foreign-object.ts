/**
 * The foreignObject rasteriser (every browser): the snapshot of this instant (snapshot.ts) loaded as an SVG image
 * and drawn into the output canvas. Everything in the image is a `data:` URL, so the canvas stays readable.
 */
import { CaptureRasteriser } from '../../capture-codes.js';
import { clearToBackdrop, outputCanvas, placeInto } from './geometry.js';
import type { CaptureTarget, Rasteriser } from './rasteriser.js';
import type { CaptureResources } from './resources.js';
import { nestedSvgDrawsAtOnce } from './nested-svg.js';
import { snapshot } from './snapshot.js';

export class ForeignObjectRasteriser implements Rasteriser {
  readonly name = CaptureRasteriser.foreignObject;
  readonly #target: CaptureTarget;
  readonly #resources: CaptureResources;
  readonly #context: CanvasRenderingContext2D;

  /** Where nested SVG images draw late (Firefox), the project's SVG images are inlined as PNGs sharp at this scale. */
  static async start(target: CaptureTarget, resources: CaptureResources): Promise<ForeignObjectRasteriser> {
    if (!(await nestedSvgDrawsAtOnce())) {
      const { width, height } = placeInto(target.size, target.output);
      resources.svgAsPngScale = 2 * Math.max(width / target.size.width, height / target.size.height);
    }
    return new ForeignObjectRasteriser(target, resources);
  }

  private constructor(target: CaptureTarget, resources: CaptureResources) {
    this.#target = target;
    this.#resources = resources;
    [, this.#context] = outputCanvas(target.output.width, target.output.height);
  }

  async capture(): Promise<ImageData> {
    const { root, size, output } = this.#target;
    const { svg } = await snapshot(root, this.#resources);
    const image = new Image();
    // A data: URL, not a blob: one: an SVG image from a blob: URL taints the canvas in some browsers.
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    await image.decode();
    const box = root.getBoundingClientRect();
    const place = placeInto(size, output);
    const context = this.#context;
    clearToBackdrop(context, this.#target.transparent);
    // The root's box of the viewport-sized image; its layout size, not the transformed box, is the composition's.
    context.drawImage(image, box.left, box.top, size.width, size.height, place.x, place.y, place.width, place.height);
    return context.getImageData(0, 0, output.width, output.height);
  }

  dispose(): void {}
}
