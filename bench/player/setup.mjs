// What the player benchmarks load and how (Node side): our built bundles, the peer's bundle and the runtime it
// injects from a CDN (answered locally, with jsDelivr's caching, so no network is needed), and a page per player.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BLOCKS_PREFIX } from './blocks.mjs';

export const PEER_NAME = '@hyperframes/player';
const PEER_DIR = 'node_modules/@hyperframes/player';
const PEER_CORE_DIR = 'node_modules/@hyperframes/core';

/**
 * The bundles each player's page loads, as repo paths: each player's classic-script bundle. Ours is the player
 * alone, with the in-frame runtime inside; `runtime` is that runtime as a file (what the ES element, measured from
 * source, adds); `sdk` (the whole SDK as `window.fx`) is only measured for size.
 */
export const BUNDLES = {
  fx: { element: 'dist/fx-player.iife.js', runtime: 'dist/fx-runtime.js', sdk: 'dist/fx.iife.js' },
  peer: {
    element: `${PEER_DIR}/dist/hyperframes-player.global.js`,
    runtime: `${PEER_CORE_DIR}/dist/hyperframe.runtime.iife.js`,
  },
};

export const BUILD_COMMAND = 'npm run build';

// Static files may be cached during these benchmarks, as any real host allows; versioned CDN files are immutable.
const CACHED_PREFIXES = ['/dist/', `/${PEER_DIR}/`, '/bench/compositions/', BLOCKS_PREFIX];
const CACHE_CONTROL = 'max-age=600';
const CDN_CACHE_CONTROL = 'public, max-age=31536000, immutable';

async function newestMtime(root, folders) {
  let newest = 0;
  for (const folder of folders) {
    for (const entry of await readdir(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        newest = Math.max(newest, (await stat(join(entry.parentPath ?? entry.path, entry.name))).mtimeMs);
    }
  }
  return newest;
}

/**
 * Checks that our dist bundles exist (throws, naming the build command, when not) and returns a warning when
 * they are older than the source they are built from.
 */
export async function checkOurBundles(root) {
  const built = [];
  for (const path of Object.values(BUNDLES.fx)) {
    try {
      built.push((await stat(join(root, path))).mtimeMs);
    } catch {
      throw new Error(`"${path}" is missing; build it first: ${BUILD_COMMAND}`);
    }
  }
  const source = await newestMtime(root, ['src/elements', 'src/runtime']);
  return Math.min(...built) < source
    ? `dist bundles are older than src/ — figures may not match the source; rebuild: ${BUILD_COMMAND}`
    : undefined;
}

/** The peer's installed version and the CDN URL of the runtime its bundle injects (read from the bundle itself). */
export async function peerInfo(root) {
  const pkg = JSON.parse(await readFile(join(root, PEER_DIR, 'package.json'), 'utf8'));
  const bundle = await readFile(join(root, BUNDLES.peer.element), 'utf8');
  const runtimeUrl =
    /https:\/\/cdn\.jsdelivr\.net\/npm\/@hyperframes\/core@[^"'`\s]+\/dist\/hyperframe\.runtime\.iife\.js/.exec(
      bundle,
    )?.[0];
  if (!runtimeUrl)
    throw new Error(
      `"${BUNDLES.peer.element}" names no hyperframe.runtime.iife.js CDN URL; the peer changed how it injects its runtime`,
    );
  const runtime = await readFile(join(root, BUNDLES.peer.runtime));
  return { version: pkg.version, runtimeUrl, runtime };
}

/**
 * Lets the browser cache our and the peer's static files for this benchmark, as a normal host would (the harness
 * serves everything `no-store` by default).
 */
export async function allowStaticCaching(context) {
  for (const prefix of CACHED_PREFIXES) await context.allowCaching(prefix, CACHE_CONTROL);
}

/**
 * Opens a page in a fresh browser context (empty cache) with one player's bundle loaded and the element defined.
 * Peer pages answer the runtime CDN URL with the installed file; `pageOptions` go to `context.newPage`. Returns
 * `{ page, pageModule, close }`.
 */
export async function openPlayerPage(context, kind, peer, pageOptions) {
  const page = await context.newPage(pageOptions);
  if (kind === 'peer') {
    await page.context().route(peer.runtimeUrl, (route) =>
      route.fulfill({
        status: 200,
        body: peer.runtime,
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': CDN_CACHE_CONTROL,
          'cross-origin-resource-policy': 'cross-origin',
        },
      }),
    );
  }
  await page.addScriptTag({ url: await context.url(`/${BUNDLES[kind].element}`) });
  const pageModule = await context.url('/bench/player/page.mjs');
  await inPage(page, pageModule, 'whenDefined', kind);
  return { page, pageModule, close: () => page.context().close() };
}

/** Runs `name(...args)` from page.mjs in `page`. */
export function inPage(page, pageModule, name, ...args) {
  return page.evaluate(async ({ url, name, args }) => (await import(url))[name](...args), {
    url: pageModule,
    name,
    args,
  });
}

/** The composition frame of the player mounted in `page` (playwright reaches into opaque-origin frames too). */
export async function playerFrame(page) {
  const handle = await page.locator('[data-bench-player]').locator('iframe').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the mounted player has no composition frame');
  return frame;
}
