/** Small helpers several runtime modules share. */

/** A plain JSON-like object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` parsed as a URL relative to `base`, or `undefined` when it is not one (`URL.parse`, which older browsers lack). */
export function parseUrl(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

/** The `data:` URL of a blob (fonts and files the host fetches on the frame's behalf). */
export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** A URL path's segments decoded (`a%20b/c.png` → `a b/c.png`); a segment that is no valid escape stays as written. */
export function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}
