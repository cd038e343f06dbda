/**
 * Files already compressed by their format: deflate would spend time to win nothing, so they are stored as they
 * are. Everything else (HTML, CSS, JS, JSON, SVG, WAV, TTF…) is deflated.
 */
const STORED_EXTENSIONS: ReadonlySet<string> = new Set([
  // video and audio
  'mp4',
  'm4v',
  'webm',
  'mov',
  'mkv',
  'mp3',
  'm4a',
  'aac',
  'ogg',
  'oga',
  'ogv',
  'opus',
  'flac',
  // images
  'png',
  'apng',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'heic',
  // fonts and archives
  'woff',
  'woff2',
  'zip',
  'gz',
  'br',
  'zst',
  '7z',
]);

/** True when the file at `path` is stored rather than deflated. */
export function isStored(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && STORED_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}
