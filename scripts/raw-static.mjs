// Serves a folder's files exactly as they are. Vite would inject its client into composition HTML, which a
// sandboxed frame then fails to load; compositions are plain files, as a user's server would serve them.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { byteRange } from './byte-range.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

/** Connect middleware serving `folder` (no listings, nothing outside it, single byte ranges). */
export function rawStatic(folder) {
  const base = normalize(folder + sep);
  return (request, response, next) => {
    let path;
    try {
      path = normalize(join(base, decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    } catch {
      return next();
    }
    if (!path.startsWith(base)) return next();
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return next();
    }
    if (!stat.isFile()) return next();
    const headers = {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'accept-ranges': 'bytes',
    };
    const range = byteRange(request.headers.range, stat.size);
    if (range === null) {
      response.writeHead(416, { ...headers, 'content-range': `bytes */${stat.size}` }).end();
      return;
    }
    const [start, end] = range ?? [0, stat.size - 1];
    response.writeHead(range ? 206 : 200, {
      ...headers,
      'content-length': stat.size === 0 ? 0 : end - start + 1,
      ...(range ? { 'content-range': `bytes ${start}-${end}/${stat.size}` } : {}),
    });
    if (request.method === 'HEAD' || stat.size === 0) response.end();
    else createReadStream(path, { start, end }).pipe(response);
  };
}
