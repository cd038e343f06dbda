// The real-composition pool (Node side): HyperFrames registry blocks from a local snapshot outside the repository
// (their code is not ours to ship), named by an environment variable. See bench/README.md for how to get one.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';

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

/**
 * The snapshot's blocks laid out as the registry installs them, in a temporary folder: each block's folder as it is
 * at its composition's `target` folder (`compositions/`: its own relative paths, e.g. `gsap.min.js`, still resolve),
 * and every manifest file at its `target` as well (templates that point at `../assets/…` find it there).
 * Resolves to `{ folder, blocks, unusable, remove() }`; each block's `file` and `path` name the installed page.
 */
export async function installBlocks(snapshot) {
  const { blocks, unusable } = await listBlocks(snapshot);
  const folder = await mkdtemp(join(tmpdir(), 'fx-bench-blocks-'));
  const installed = [];
  for (const block of blocks) {
    const from = join(snapshot, block.name);
    const to = join(folder, block.name);
    const files = await manifestFiles(from);
    const page = files.find((file) => file.path === block.file)?.target ?? block.file;
    await cp(from, join(to, dirname(page)), { recursive: true });
    for (const file of files) {
      await mkdir(dirname(join(to, file.target)), { recursive: true });
      await cp(join(from, file.path), join(to, file.target), { recursive: true });
    }
    installed.push({ ...block, file: page, path: `${BLOCKS_PREFIX}${block.name}/${page}` });
  }
  return { folder, blocks: installed, unusable, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** A block's manifest files whose `path` and `target` stay inside the block (none without a readable manifest). */
async function manifestFiles(blockFolder) {
  const inside = (path) => typeof path === 'string' && !normalize(path).startsWith(`..${sep}`) && !path.startsWith('/');
  try {
    const manifest = JSON.parse(await readFile(join(blockFolder, MANIFEST), 'utf8'));
    return (manifest.files ?? []).filter((file) => inside(file.path) && inside(file.target));
  } catch {
    return [];
  }
}

/** `size` blocks spread evenly over the sorted `blocks` (every k-th), so the pool is fixed for a given corpus. */
export function poolOf(blocks, size) {
  if (blocks.length <= size) return blocks;
  return Array.from({ length: size }, (_, k) => blocks[Math.floor((k * blocks.length) / size)]);
}
