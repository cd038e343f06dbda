/**
 * The project's files the host sent with `capture-start`, by absolute URL. The frame's origin is opaque: it may not
 * fetch them, nor read their pixels once loaded from the server, so the rasterisers use these bytes instead (as
 * `data:` URLs inside a foreignObject image, where nothing else loads; as `blob:` URLs, which are the frame's own).
 */
export class CaptureResources {
  readonly #blobs = new Map<string, Blob>();
  readonly #dataUrls = new Map<string, Promise<string | undefined>>();
  readonly #blobUrls = new Map<string, string>();
  /** Set where nested SVG images draw late (nested-svg.ts): SVG images are inlined as PNGs this many times their size. */
  svgAsPngScale: number | undefined;

  constructor(resources: readonly { readonly url: string; readonly blob: Blob }[]) {
    for (const { url, blob } of resources) this.#blobs.set(withoutHash(url), blob);
  }

  /** Readable without the network: a `data:` or `blob:` URL, or one the host sent. */
  covers(url: string): boolean {
    return isInline(url) || this.#blobs.has(withoutHash(url));
  }

  /** The file as a `data:` URL (once per URL), or `undefined` when neither inline nor sent. */
  dataUrl(url: string): Promise<string | undefined> {
    let found = this.#dataUrls.get(url);
    if (!found) {
      found = this.#read(url)
        .then((blob) => blob && this.#inlined(blob))
        .catch(() => undefined);
      this.#dataUrls.set(url, found);
    }
    return found;
  }

  async #read(url: string): Promise<Blob | undefined> {
    // The frame's own URLs (blob:, data:) it may fetch; the network's it may not.
    if (isInline(url)) return (await fetch(url)).blob();
    return this.#blobs.get(withoutHash(url));
  }

  async #inlined(blob: Blob): Promise<string> {
    const dataUrl = await readAsDataUrl(blob);
    if (this.svgAsPngScale === undefined || !/^image\/svg\+xml\b/.test(blob.type)) return dataUrl;
    return svgAsPng(dataUrl, this.svgAsPngScale).catch(() => dataUrl);
  }

  /** The file as a `blob:` URL of this frame (same-origin, so drawing it taints nothing), if the host sent it. */
  blobUrl(url: string): string | undefined {
    const blob = this.#blobs.get(withoutHash(url));
    if (!blob) return undefined;
    let found = this.#blobUrls.get(url);
    if (!found) this.#blobUrls.set(url, (found = URL.createObjectURL(blob) + hashOf(url)));
    return found;
  }
}

export const isInline = (url: string) => url.startsWith('data:') || url.startsWith('blob:');
const withoutHash = (url: string) => url.replace(/#.*$/s, '');
const hashOf = (url: string) => /#.*$/s.exec(url)?.[0] ?? '';

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** An SVG image as a PNG `scale` times its intrinsic size (300 × 150 without one), at most 4096 pixels a side. */
async function svgAsPng(dataUrl: string, scale: number): Promise<string> {
  const image = new Image();
  image.src = dataUrl;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.min(4096, Math.ceil((image.naturalWidth || 300) * scale));
  canvas.height = Math.min(4096, Math.ceil((image.naturalHeight || 150) * scale));
  canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}
