/**
 * The top-level files a sandboxed frame cannot load well itself, fetched by the compile and written into the
 * document: stylesheets (and their fonts), the entry's own scripts, and `<img crossorigin>`.
 */
import { absolutizeCssUrls, inlineFontFaces } from './css.js';
import { CompileIssueCode } from './codes.js';
import { loadFont, loadImage, loadText } from './loader.js';
import { FxError, isFxError } from '../errors.js';
import { issue, type Issue } from '../issues.js';
import { parseUrl } from '../data.js';
import {
  CLASSIC_SCRIPT_TYPES,
  HIERARCHICAL_PROTOCOLS,
  LEFT_FOR_THE_FRAME,
  createElement,
  inertInRawText,
  reportLeftForTheFrame,
  type Context,
} from './context.js';
import { STYLESHEET_LINKS } from './dependencies.js';

/**
 * The CSS of a `<style>`, or of the stylesheet a `<link>` names, with its `url()`s made absolute against the file
 * that wrote them and its fonts inlined (the frame cannot fetch those without CORS). A font that may not be read
 * keeps its URL, for the frame to load itself, and is reported as a warning at `path`.
 */
export async function loadStylesheet(
  ctx: Context,
  element: Element,
  base: string,
  path: readonly string[],
): Promise<string> {
  const isLink = element.localName === 'link';
  const url = isLink ? new URL(element.getAttribute('href')!, base).href : base;
  const text = isLink ? await loadText(ctx, url, 'stylesheet') : (element.textContent ?? '');
  const css = absolutizeCssUrls(text, url);
  if (!ctx.inlineFonts) return css;
  return inlineFontFaces(css, (font) =>
    loadFont(ctx, font).catch((error: unknown) => {
      if (isFxError(error) && LEFT_FOR_THE_FRAME.has(error.code)) reportLeftForTheFrame(ctx, error, [...path, font]);
      return undefined;
    }),
  );
}

/** The top-level stylesheets: linked ones are inlined, and every font is (the frame cannot fetch them). */
export async function inlineStylesheets(ctx: Context, doc: Document, base: string): Promise<void> {
  for (const link of doc.querySelectorAll(STYLESHEET_LINKS)) {
    const href = link.getAttribute('href') ?? '';
    try {
      const css = await loadStylesheet(ctx, link, base, [href]);
      ctx.documentBytes += css.length;
      link.replaceWith(createElement(doc, 'style', {}, inertInRawText(css, 'style')));
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      // Left as a link: the frame loads it itself, under the browser's rules (without fonts served without CORS).
      if (isFxError(error) && LEFT_FOR_THE_FRAME.has(error.code)) reportLeftForTheFrame(ctx, error, [href]);
    }
  }
  for (const style of doc.querySelectorAll('style')) {
    if (!style.textContent?.includes('@font-face')) continue;
    style.textContent = await loadStylesheet(ctx, style, base, []);
    ctx.documentBytes += style.textContent.length;
  }
}

/**
 * The entry's own classic `<script src>`s the composition may read, inlined. The frame's opaque origin gets no
 * HTTP cache, so it would download them again at every load and reload (a 70 KB animation library each time); the
 * host's fetch is cached. Left as they are, for the frame to load itself: `async`/`defer` ones (inline scripts
 * cannot keep that timing), `integrity` ones, modules, others' hosts, and any that fails to load here or would pass
 * the document size limit. (An inlined script sees no `document.currentScript.src`.)
 */
export async function inlineScripts(ctx: Context, doc: Document, base: string): Promise<void> {
  const scripts = [...doc.querySelectorAll('script[src]')].flatMap((script) => {
    const kept = ['async', 'defer', 'integrity', 'nomodule'].some((name) => script.hasAttribute(name));
    const classic = CLASSIC_SCRIPT_TYPES.has(script.getAttribute('type')?.trim().toLowerCase() ?? '');
    const url = parseUrl(script.getAttribute('src')!, base);
    return !kept && classic && url && HIERARCHICAL_PROTOCOLS.has(url.protocol) && ctx.scope.allows(url)
      ? [{ script, url: url.href }]
      : [];
  });
  const loaded = await Promise.all(
    scripts.map(({ url }) =>
      loadText(ctx, url, 'script').catch((error: unknown) => {
        if (ctx.signal?.aborted) throw error;
        return undefined;
      }),
    ),
  );
  scripts.forEach(({ script }, index) => {
    const code = loaded[index];
    if (code === undefined || ctx.documentBytes + code.length > ctx.limits.documentBytes) return;
    ctx.documentBytes += code.length;
    script.removeAttribute('src');
    script.removeAttribute('crossorigin');
    script.removeAttribute('charset');
    script.textContent = inertInRawText(code, 'script');
  });
}

/**
 * `<img crossorigin>` asks for a CORS load, which the frame's opaque origin gets only from servers that allow any
 * origin: a project's own server seldom does, and the image would not show. Those the composition may read (its
 * folder, `allowCompositionReadsUnder`) become `data:` URLs; others are left for the frame, under the web's rules.
 */
export async function inlineCorsImages(ctx: Context, doc: Document, base: string): Promise<void> {
  const images = [...doc.querySelectorAll('img[crossorigin][src]')].flatMap((image) => {
    const url = parseUrl(image.getAttribute('src')!, base);
    return url && HIERARCHICAL_PROTOCOLS.has(url.protocol) && ctx.scope.allows(url) ? [{ image, url: url.href }] : [];
  });
  await Promise.all(
    images.map(async ({ image, url }) => {
      try {
        const data = await loadImage(ctx, url);
        if (ctx.documentBytes + data.length > ctx.limits.documentBytes) {
          throw new FxError(
            CompileIssueCode.imageTooLarge,
            `"${url}" would take the compiled document past ${ctx.limits.documentBytes} characters`,
          );
        }
        ctx.documentBytes += data.length;
        image.setAttribute('src', data);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        if (!isFxError(error)) return;
        // compile/files.ts reports it with where it is named.
        if (error.code === CompileIssueCode.fileMissing) return;
        const src = image.getAttribute('src')!;
        // The frame's opaque origin could load it only from a server that allows any origin: the preview would
        // show a broken image where the render (same origin as the project) shows it. Refused in both instead.
        if (error.code === CompileIssueCode.imageTooLarge) ctx.issues.push(imageTooLargeIssue(error.message, src));
        else reportLeftForTheFrame(ctx, error, [src]);
      }
    }),
  );
}

function imageTooLargeIssue(reason: string, src: string): Issue {
  return issue(
    CompileIssueCode.imageTooLarge,
    ['img', 'crossorigin', src],
    `<img crossorigin> "${src}" is too large to inline into the composition (${reason}); the frame cannot load it with CORS either. Make it smaller, or drop "crossorigin" if no script reads its pixels`,
  );
}
