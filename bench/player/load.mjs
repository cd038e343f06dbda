// Load-to-ready: from setting `src` to the player's `ready` event, for every composition both players load.
// Cold: a fresh browser context (empty cache, new page) per load. Warm: one page per player that has already
// loaded every composition once; each later load mounts a fresh element on that page.
import { inPage, openPlayerPage } from './setup.mjs';

const LOAD_TIMEOUT_MS = 10_000;
// The peer fires `ready` once it found a timeline; `assetsready` comes after its media/image/font checks.
const PEER_ASSETS_TIMEOUT_MS = 1500;

async function loadOnce(context, page, pageModule, kind, composition) {
  const src = await context.url(composition.path);
  try {
    return await inPage(page, pageModule, 'load', kind, src, {
      timeoutMs: LOAD_TIMEOUT_MS,
      assetsTimeoutMs: kind === 'peer' ? PEER_ASSETS_TIMEOUT_MS : 0,
    });
  } catch (error) {
    throw new Error(`${kind} failed to load "${composition.name}": ${error.message}`);
  }
}

/**
 * Loads each of `compositions` (all loadable by both players) and returns
 * `{ cold: { fx, peer }, warm: { fx, peer }, peerAssetsReady: { cold, warm }, byComposition }`, arrays of
 * milliseconds (`byComposition[name][phase][player]`).
 * Loads alternate between the players composition by composition, so a slow moment of the machine hits both.
 */
export async function measureLoadToReady(context, { compositions, peer, coldRepetitions, warmRepetitions }) {
  const kinds = ['fx', 'peer'];
  const cold = { fx: [], peer: [] };
  const warm = { fx: [], peer: [] };
  const peerAssetsReady = { cold: [], warm: [] };
  const byComposition = Object.fromEntries(
    compositions.map(({ name }) => [name, { cold: { fx: [], peer: [] }, warm: { fx: [], peer: [] } }]),
  );
  const record = (bucket, phase, kind, composition, result) => {
    bucket[kind].push(result.readyMs);
    byComposition[composition.name][phase][kind].push(result.readyMs);
    if (kind === 'peer' && result.assetsReadyMs !== undefined) peerAssetsReady[phase].push(result.assetsReadyMs);
  };

  // One unrecorded load per player first: the browser's own first-use costs are nobody's load time.
  for (const kind of kinds) {
    const { page, pageModule, close } = await openPlayerPage(context, kind, peer);
    await loadOnce(context, page, pageModule, kind, compositions[0]).finally(close);
  }

  for (let repetition = 0; repetition < coldRepetitions; repetition++) {
    for (const composition of compositions) {
      for (const kind of kinds) {
        const { page, pageModule, close } = await openPlayerPage(context, kind, peer);
        try {
          record(cold, 'cold', kind, composition, await loadOnce(context, page, pageModule, kind, composition));
        } finally {
          await close();
        }
      }
    }
  }

  const pages = {};
  try {
    for (const kind of kinds) pages[kind] = await openPlayerPage(context, kind, peer);
    for (let pass = 0; pass <= warmRepetitions; pass++) {
      for (const composition of compositions) {
        for (const kind of kinds) {
          const result = await loadOnce(context, pages[kind].page, pages[kind].pageModule, kind, composition);
          if (pass > 0) record(warm, 'warm', kind, composition, result); // pass 0 warms the page up
        }
      }
    }
  } finally {
    await Promise.allSettled(Object.values(pages).map(({ close }) => close()));
  }
  return { cold, warm, peerAssetsReady, byComposition };
}
