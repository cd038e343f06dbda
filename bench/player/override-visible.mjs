// Issue 13 §2 on the real pool: an override on a block whose scripts read values at load, timed on both players on
// the same block with the playhead parked where the variable's text shows. Ours runs those scripts again in place
// (or, where it cannot, reloads behind the scenes and swaps): `overrideVisible`. The peer has no live update, so its
// host re-mounts the document with `window.__hfVariables` and seeks back: `overrideByRemount`. After each sample the
// text shown is checked, so a fast wrong picture fails.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median } from '../lib/stats.mjs';
import { shownText } from './block-checks.mjs';
import { inPage, openPlayerPage } from './setup.mjs';

const WARMUP = 1;
const SAMPLES = 5;
const LOAD_TIMEOUT_MS = 10_000;

// Inline-script-safe JSON: `<` never appears, so no value can close the script element.
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');
const normalize = (text) => text.replace(/\s+/g, ' ').trim().toLowerCase();
/** A new text per sample, short enough to show whole where the default showed. */
const textOf = (sample) => `Qzx ${String.fromCharCode(65 + sample)}fq`;

/** The block's page as the peer re-mounts it: resolving against the block's URL, with `values` injected first. */
function peerDocument(html, baseUrl, values) {
  const injected = `<base href="${baseUrl}"><script>window.__hfVariables = ${scriptJson(values)};</script>`;
  const head = /<head[^>]*>/i.exec(html);
  return head ? html.replace(head[0], head[0] + injected) : injected + html;
}

/** `{ samples, pagePaint, how }`, `{ bindings: true }` (ours: no script reads the variable) or `{ failed }`. */
async function sampleBlock(context, kind, block, peer) {
  const { page, pageModule, close } = await openPlayerPage(context, kind, peer);
  const { id, time } = block.variable;
  const url = await context.url(block.path);
  const html = kind === 'peer' ? await readFile(join(block.folder, block.name, block.file), 'utf8') : '';
  const samples = [];
  const pagePaint = [];
  const how = {};
  try {
    if (kind === 'fx') await inPage(page, pageModule, 'load', kind, url, { timeoutMs: LOAD_TIMEOUT_MS });
    else await inPage(page, pageModule, 'loadSrcdoc', kind, peerDocument(html, url, {}));
    await inPage(page, pageModule, 'seek', time);
    for (let sample = 0; sample < WARMUP + SAMPLES; sample++) {
      const text = textOf(sample);
      const result =
        kind === 'fx'
          ? await inPage(page, pageModule, 'overrideVisible', id, text)
          : await inPage(page, pageModule, 'overrideByRemount', peerDocument(html, url, { [id]: text }), time);
      if (result.how === 'bindings') return { bindings: true };
      if (!(await shownText(page)).includes(normalize(text)))
        return { failed: `${kind}: "${text}" not shown once the override was painted` };
      if (sample < WARMUP) continue;
      samples.push(result.ms);
      if (result.pagePaintMs !== undefined) pagePaint.push(result.pagePaintMs);
      if (result.how) how[result.how] = (how[result.how] ?? 0) + 1;
    }
    return { samples, pagePaint, how };
  } finally {
    await close();
  }
}

/**
 * Times the override on each of `blocks` (`{ name, folder, file, path, variable: { id, time } }`) on both players,
 * one block after the other. Returns `{ byBlock: { [name]: { fx, peer } } (milliseconds), fxPagePaint: { [name]: ours
 * up to the page's next paint after the answer }, how: { [name]: counts }, bindingsOnly, failed }`; blocks whose scripts do not read the variable (bindings show it) are listed, not timed.
 */
export async function measureOverrideVisible(context, { blocks, peer }) {
  const byBlock = {};
  const how = {};
  const bindingsOnly = [];
  const failed = [];
  const fxPagePaint = {};
  for (const block of blocks) {
    const fx = await sampleBlock(context, 'fx', block, peer);
    if (fx.bindings) {
      bindingsOnly.push(block.name);
      continue;
    }
    const results = { fx, peer: fx.failed ? {} : await sampleBlock(context, 'peer', block, peer) };
    const failures = Object.values(results).filter((result) => result.failed);
    if (failures.length > 0) {
      failed.push({ block: block.name, reasons: failures.map((result) => result.failed) });
      continue;
    }
    byBlock[block.name] = { fx: results.fx.samples, peer: results.peer.samples };
    fxPagePaint[block.name] = results.fx.pagePaint;
    how[block.name] = results.fx.how;
  }
  return { byBlock, fxPagePaint, how, bindingsOnly, failed };
}

/** Per block, our median over the peer's; and the median of those ratios. */
export function overrideRatios(byBlock) {
  const ratios = Object.fromEntries(
    Object.entries(byBlock).map(([name, players]) => [name, median(players.fx) / median(players.peer)]),
  );
  return { ratios, median: median(Object.values(ratios)) };
}
