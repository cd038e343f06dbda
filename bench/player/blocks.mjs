// The real-composition pool (Node side): HyperFrames registry blocks from a local snapshot outside the repository
// (their code is not ours to ship), named by an environment variable. See bench/README.md for how to get one.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const BLOCKS_ENV = 'FX_BENCH_BLOCKS';
/** Caps how many blocks the compatibility pass loads (the pool is taken from those), to shorten a run. */
export const BLOCKS_LIMIT_ENV = 'FX_BENCH_BLOCKS_LIMIT';
/** Where the corpus is served on the bench origin. */
export const BLOCKS_PREFIX = '/__blocks/';

const MANIFEST = 'registry-item.json';
const COMPOSITION_TYPE = 'hyperframes:composition';
// The root is the first element with a composition id; tags may span lines.
export const ROOT_TAG = /<[a-z][^>]*\sdata-composition-id\s*=[^>]*>/i;
const DURATION_ATTRIBUTE = /\sdata-duration\s*=\s*["']?([0-9.]+)/i;

/**
 * Where the corpus is, from the environment: `{ folder, limit }`, or `{ skipped }` saying why there is none
 * (the variable unset, the folder missing, or a bad limit).
 */
export async function blocksSource(env = process.env) {
  const folder = env[BLOCKS_ENV];
  if (!folder)
    return { skipped: `${BLOCKS_ENV} is not set (a folder of HyperFrames registry blocks; see bench/README.md)` };
  try {
    if (!(await stat(folder)).isDirectory()) return { skipped: `${BLOCKS_ENV}="${folder}" is not a folder` };
  } catch {
    return { skipped: `${BLOCKS_ENV}="${folder}" does not exist` };
  }
  const rawLimit = env[BLOCKS_LIMIT_ENV];
  const limit = rawLimit === undefined || rawLimit === '' ? Infinity : Number(rawLimit);
  if (!(Number.isInteger(limit) && limit > 0) && limit !== Infinity)
    return { skipped: `${BLOCKS_LIMIT_ENV} must be a positive integer, got ${JSON.stringify(rawLimit)}` };
  return { folder, limit };
}

/** The composition file of a block folder: the manifest's composition entry, else its only `.html` file. */
async function compositionFile(folder, files) {
  if (files.includes(MANIFEST)) {
    try {
      const manifest = JSON.parse(await readFile(join(folder, MANIFEST), 'utf8'));
      const listed = (manifest.files ?? []).filter((file) => file.type === COMPOSITION_TYPE).map((file) => file.path);
      if (listed.length === 1 && files.includes(listed[0])) return listed[0];
    } catch {
      // An unreadable manifest falls back to the folder's files.
    }
  }
  const pages = files.filter((file) => file.endsWith('.html'));
  return pages.length === 1 ? pages[0] : undefined;
}

/** The root's `data-duration` in seconds, read from the source (before any player touches it); NaN when absent. */
export function rootDuration(html) {
  const root = ROOT_TAG.exec(html)?.[0];
  return Number(DURATION_ATTRIBUTE.exec(root ?? '')?.[1] ?? Number.NaN);
}

/**
 * Every block folder of `folder` with one composition, sorted by name: `{ name, file, path, duration }` (`path` on
 * the bench origin, under {@link BLOCKS_PREFIX}), plus `{ unusable: [{ name, reason }] }`.
 */
export async function listBlocks(folder) {
  const blocks = [];
  const unusable = [];
  const names = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const name of names) {
    const files = await readdir(join(folder, name));
    const file = await compositionFile(join(folder, name), files);
    if (!file) {
      unusable.push({ name, reason: 'no single composition HTML' });
      continue;
    }
    const duration = rootDuration(await readFile(join(folder, name, file), 'utf8'));
    blocks.push({ name, file, path: `${BLOCKS_PREFIX}${name}/${file}`, duration });
  }
  return { blocks, unusable };
}

/** `size` blocks spread evenly over the sorted `blocks` (every k-th), so the pool is fixed for a given corpus. */
export function poolOf(blocks, size) {
  if (blocks.length <= size) return blocks;
  return Array.from({ length: size }, (_, k) => blocks[Math.floor((k * blocks.length) / size)]);
}
