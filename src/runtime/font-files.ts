/**
 * What counts as a font file where the host fetches one for a composition (the compiler's `@font-face` inlining,
 * the element's font variables): the content types fonts are served with, and the leading bytes of each format.
 */

/** Content-type essences a font may come with: font types, and the generic binary ones (or none) many hosts use. */
export const FONT_CONTENT_TYPE =
  /^(font\/[\w.+-]+|application\/(x-)?font-[\w.+-]+|application\/vnd\.ms-(opentype|fontobject)|(application|binary)\/octet-stream)?$/;

/** The content type of each format browsers load, by its first four bytes. */
const FONT_SIGNATURES: Readonly<Record<string, string>> = {
  wOFF: 'font/woff',
  wOF2: 'font/woff2',
  OTTO: 'font/otf',
  true: 'font/ttf',
  '\0\x01\0\0': 'font/ttf',
  ttcf: 'font/collection',
};

/** The content type of the font format `file` starts like, or `undefined` when its first bytes are no font's. */
export async function fontFileType(file: Blob): Promise<string | undefined> {
  const signature = String.fromCharCode(...new Uint8Array(await file.slice(0, 4).arrayBuffer()));
  return Object.hasOwn(FONT_SIGNATURES, signature) ? FONT_SIGNATURES[signature] : undefined;
}
