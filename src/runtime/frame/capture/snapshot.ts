/**
 * The document at this instant as the XHTML of a foreignObject image: the composition root cloned with its
 * ancestors' attributes (selectors such as `body > …` still match), styles as text, the properties animations set
 * inlined with their computed values, every image, font, video frame and canvas inlined as a `data:` URL (an image
 * loads nothing else, and only `data:` URLs leave the canvas it is drawn into readable).
 */
import { animatedProperties } from './animated-properties.js';
import { CaptureResources } from './resources.js';
import { rewriteCss, styleText } from './style-text.js';

const XHTML = 'http://www.w3.org/1999/xhtml';
/** Animations of the frame must not run again inside the image: their values of this instant are inlined. */
const STILL = '*, *::before, *::after { animation: none !important; transition: none !important; }';
const SKIPPED = new Set(['script', 'noscript', 'template']);
const TOKEN = /about:fx-capture-(\d+)/g;
/**
 * Where the copy is built: a document with no browsing context loads nothing, so an `<img>` copy whose `src` is
 * still a token does not try to fetch it (in the frame's own document each capture logged one failed load per image).
 */
let inertDocument: Document | undefined;
const inert = () => (inertDocument ??= document.implementation.createHTMLDocument(''));

/** Absolute URLs found while cloning, each a token in the markup until their `data:` URLs are read. */
class UrlTokens {
  readonly urls: string[] = [];
  readonly #index = new Map<string, number>();
  token = (absolute: string): string => {
    let index = this.#index.get(absolute);
    if (index === undefined) this.#index.set(absolute, (index = this.urls.push(absolute) - 1));
    return `about:fx-capture-${index}`;
  };
}

export interface Snapshot {
  /** The SVG markup, `width` × `height` CSS pixels: the frame's viewport. */
  readonly svg: string;
  readonly width: number;
  readonly height: number;
}

export async function snapshot(root: HTMLElement, resources: CaptureResources): Promise<Snapshot> {
  const tokens = new UrlTokens();
  const animated = animatedProperties();
  const html = shallowClone(document.documentElement, tokens.token);
  const head = inert().createElementNS(XHTML, 'head');
  const style = inert().createElementNS(XHTML, 'style');
  style.textContent = `${styleText(tokens.token)}\n${STILL}`;
  head.append(style);
  html.append(head);
  // The root's ancestors, attributes only: the composition is all that is drawn.
  let parent: Element = html;
  for (const ancestor of ancestorsBelowHtml(root)) parent = parent.appendChild(shallowClone(ancestor, tokens.token));
  const clone = cloneTree(root, { animated, token: tokens.token });
  if (clone) parent.append(clone);

  const width = Math.max(innerWidth, Math.ceil(root.getBoundingClientRect().right));
  const height = Math.max(innerHeight, Math.ceil(root.getBoundingClientRect().bottom));
  const markup = new XMLSerializer().serializeToString(html);
  const inlined = await Promise.all(tokens.urls.map((url) => resources.dataUrl(url)));
  const body = markup.replace(TOKEN, (_, index: string) => forMarkup(inlined[Number(index)] ?? 'data:,'));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<foreignObject x="0" y="0" width="${width}" height="${height}">${body}</foreignObject></svg>`;
  return { svg, width, height };
}

/**
 * A `data:` URL as it may stand in an attribute or a quoted CSS `url("…")` of the XHTML: quotes, backslashes and
 * line breaks percent-encoded (a URL means the same so), then what XML escapes.
 */
const forMarkup = (url: string) =>
  url
    .replace(/["\\\n\r]/g, (character) => encodeURIComponent(character))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function ancestorsBelowHtml(root: Element): Element[] {
  const chain: Element[] = [];
  for (let node = root.parentElement; node && node !== document.documentElement; node = node.parentElement)
    chain.unshift(node);
  return chain;
}

interface CloneContext {
  readonly animated: Map<Element, Set<string>>;
  readonly token: (absolute: string) => string;
}

/** An element without its children, in the XHTML namespace, its inline style's URLs tokenised. */
function shallowClone(element: Element, token: (absolute: string) => string): Element {
  const copy = inert().importNode(element, false);
  const inline = element.getAttribute('style');
  if (inline) copy.setAttribute('style', rewriteCss(inline, element.baseURI, token));
  return copy;
}

function cloneTree(node: Node, context: CloneContext): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return inert().importNode(node, false);
  if (!(node instanceof Element) || SKIPPED.has(node.localName)) return null;
  const copy = replacement(node, context) ?? shallowClone(node, context.token);
  inlineAnimated(node, copy, context);
  if (copy.localName !== 'img' || node.localName === 'img')
    for (const child of node.childNodes) {
      const cloned = cloneTree(child, context);
      if (cloned) copy.append(cloned);
    }
  return copy;
}

/** What a `<video>` or `<canvas>` says of itself that an `<img>` of its pixels must not. */
const MEDIA_ATTRIBUTES = new Set([
  'src',
  'srcset',
  'poster',
  'width',
  'height',
  'controls',
  'autoplay',
  'loop',
  'muted',
  'playsinline',
  'preload',
  'crossorigin',
]);

/** Images by their inlined source; videos and canvases as images of their pixels now. */
function replacement(element: Element, context: CloneContext): Element | undefined {
  if (element instanceof HTMLImageElement) {
    const copy = shallowClone(element, context.token);
    copy.removeAttribute('srcset');
    copy.removeAttribute('sizes');
    copy.removeAttribute('loading');
    const source = element.currentSrc || element.src;
    if (source) copy.setAttribute('src', context.token(source));
    return copy;
  }
  if (element instanceof SVGImageElement) {
    const copy = shallowClone(element, context.token);
    const href = element.href.baseVal;
    if (href) {
      copy.removeAttributeNS('http://www.w3.org/1999/xlink', 'href');
      copy.setAttribute('href', context.token(new URL(href, element.baseURI).href));
    }
    return copy;
  }
  if (element instanceof HTMLVideoElement || element instanceof HTMLCanvasElement) {
    const pixels = pixelsOf(element);
    if (!pixels) return undefined;
    const image = inert().createElementNS(XHTML, 'img');
    // Every attribute but the media's own: the runtime's (a clip out of its window is hidden by one) and those the
    // composition's selectors name.
    for (const { name, value } of element.attributes)
      if (!MEDIA_ATTRIBUTES.has(name))
        image.setAttribute(name, name === 'style' ? rewriteCss(value, element.baseURI, context.token) : value);
    const computed = getComputedStyle(element);
    // An image sized by its pixels would lay out differently: it keeps the element's box and fit.
    image.setAttribute(
      'style',
      `${image.getAttribute('style') ?? ''};box-sizing:border-box;width:${(element as HTMLElement).offsetWidth}px;` +
        `height:${(element as HTMLElement).offsetHeight}px;object-fit:${element instanceof HTMLVideoElement ? computed.objectFit : 'fill'};` +
        `object-position:${computed.objectPosition}`,
    );
    image.setAttribute('src', pixels);
    return image;
  }
  return undefined;
}

/** A video's frame now, or a canvas's pixels, as a `data:` URL (undefined without any yet). */
function pixelsOf(element: HTMLVideoElement | HTMLCanvasElement): string | undefined {
  if (element instanceof HTMLCanvasElement) return element.width && element.height ? element.toDataURL() : undefined;
  if (element.readyState < 2 || !element.videoWidth) return undefined;
  const canvas = document.createElement('canvas');
  canvas.width = element.videoWidth;
  canvas.height = element.videoHeight;
  canvas.getContext('2d')?.drawImage(element, 0, 0);
  // A video frame is lossy already: JPEG encodes a 1080p frame many times faster than PNG.
  return canvas.toDataURL('image/jpeg', 0.92);
}

/** The values animations give `element` now, as important inline declarations of its copy. */
function inlineAnimated(element: Element, copy: Element, context: CloneContext): void {
  const properties = context.animated.get(element);
  if (!properties || !(copy instanceof HTMLElement || copy instanceof SVGElement)) return;
  const computed = getComputedStyle(element);
  for (const property of properties) {
    const value = computed.getPropertyValue(property);
    if (value) copy.style.setProperty(property, rewriteCss(value, element.baseURI, context.token), 'important');
  }
}
