/**
 * Whether an SVG image inside a foreignObject image is drawn as soon as the outer image decoded. Firefox ESR
 * decodes nested SVG images later (blank at first, drawn some tens of milliseconds after): where so, SVG images
 * are inlined as PNGs (resources.ts), which every browser draws at once. Tested once, by feature, not by name.
 */
let answer: Promise<boolean> | undefined;

const BLUE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#00f"/></svg>';

export function nestedSvgDrawsAtOnce(): Promise<boolean> {
  return (answer ??= probe().catch(() => false));
}

async function probe(): Promise<boolean> {
  const inner = `data:image/svg+xml;base64,${btoa(BLUE_SVG)}`;
  const outer =
    '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><foreignObject width="4" height="4">' +
    `<img xmlns="http://www.w3.org/1999/xhtml" src="${inner}" style="display:block;width:4px;height:4px"/>` +
    '</foreignObject></svg>';
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(outer)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 4;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return false;
  context.drawImage(image, 0, 0);
  return context.getImageData(2, 2, 1, 1).data[2] === 255;
}
