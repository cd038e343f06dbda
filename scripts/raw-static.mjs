// Serves a folder's files exactly as they are. Vite would inject its client into composition HTML, which a
// sandboxed frame then fails to load; compositions are plain files, as a user's server would serve them.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

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

/** Connect middleware serving `folder` (no listings, nothing outside it). */
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
    response.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-cache',
    });
    createReadStream(path).pipe(response);
  };
}
