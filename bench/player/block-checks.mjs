// Compatibility of each player with real compositions (Node side): on one page per player, every block is loaded
// in turn and checked — ready, duration, seeks, clean, and (ours) a text variable override shown with the playhead
// kept. Requests leaving localhost are refused and recorded: a block that made one is not offline-capable.
import { LANDING_TOLERANCE } from './scrub.mjs';
import { inPage, openPlayerPage } from './setup.mjs';

export const CHECKS = ['ready', 'duration', 'seeks', 'clean', 'overrides'];
// Ours gets these blocks ready in well under a second, the peer in about 0.3 s (it gives up after 8 s itself).
const LOAD_TIMEOUT_MS = 3000;
const SEEK_TIMEOUT_MS = 5000;
/** Issue 13 §2 saw overrides of read-at-load blocks show after ~10 s: wait past that, and report how long it took. */
const OVERRIDE_TIMEOUT_MS = 15_000;
const OVERRIDE_POLL_MS = 25;
const SEEK_FRACTIONS = [0.1, 0.3, 0.5, 0.7, 0.9];
/** Short, so a text typed out by the timeline at the check time shows whole; matched case-insensitively. */
const OVERRIDE_TEXT = 'Qzx Fxq';
const MIN_DEFAULT_CHARS = 4;

/** The first line of an error thrown through `page.evaluate`, without playwright's prefix. */
const briefly = (error) =>
  error.message
    .split('\n')[0]
    .replace(/^\w+\.evaluate: (Error: )?/, '')
    .slice(0, 300);
const normalize = (text) => text.replace(/\s+/g, ' ').trim().toLowerCase();
const isLocal = (url) => ['127.0.0.1', 'localhost'].includes(url.hostname) || !/^(https?|wss?):$/.test(url.protocol);

/** Whether a composition frame shows on the page (a reload's incoming frame does not, until it swaps in). */
function isShown(iframe) {
  const style = getComputedStyle(iframe);
  return iframe.isConnected && style.display !== 'none' && style.visibility !== 'hidden' && Number(style.opacity) > 0;
}

/** The text the shown composition frames of the mounted player render (`innerText`: what layout lays out). */
export async function shownText(page) {
  const texts = [];
  for (const iframe of await page.locator('[data-bench-player]').locator('iframe').elementHandles()) {
    try {
      if (!(await iframe.evaluate(isShown))) continue;
      texts.push(normalize(await (await iframe.contentFrame()).evaluate(() => document.body?.innerText ?? '')));
    } catch {
      // The frame went away meanwhile (a reload swapped it out): the next poll reads its successor.
    }
  }
  return texts.join('\n');
}

/** A page for `kind` that refuses and records requests leaving localhost and records page and console errors. */
export async function openWatchedPage(context, kind, peer, pageOptions) {
  const opened = await openPlayerPage(context, kind, peer, pageOptions);
  const watch = { external: [], errors: [] };
  await opened.page.context().route(
    (url) => !isLocal(url),
    (route) => {
      const url = route.request().url();
      if (kind === 'peer' && url === peer.runtimeUrl) return route.fallback(); // served locally by openPlayerPage
      watch.external.push(url);
      return route.abort('blockedbyclient');
    },
  );
  opened.page.on('pageerror', (error) => watch.errors.push(`page error: ${error.message}`));
  opened.page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    // Playwright's routes miss the sandboxed frame's own requests; Chromium's failure message names the URL.
    if (url && URL.canParse(url) && !isLocal(new URL(url))) watch.external.push(url);
    watch.errors.push(`console error: ${message.text()}${url ? ` (${url})` : ''}`);
  });
  return { ...opened, watch };
}

/** Seeks to each of `times`; returns the landings and, per time, the text the shown frame renders there. */
async function seekAll(page, pageModule, times, withText) {
  const landed = [];
  const texts = [];
  for (const time of times) {
    landed.push(await inPage(page, pageModule, 'seekWithin', time, SEEK_TIMEOUT_MS).catch(briefly));
    if (withText) texts.push(await shownText(page));
  }
  return { landed, texts };
}

/**
 * Of the string `declarations`, one whose default text shows at one of the seek times, and that time: the override check sets it
 * there. `undefined` when the block binds no declared string to visible text.
 */
function visibleTextVariable(declarations, times, texts) {
  for (const declaration of declarations) {
    if (typeof declaration.default !== 'string') continue;
    const text = normalize(declaration.default);
    if (text.length < MIN_DEFAULT_CHARS) continue;
    const at = texts.findIndex((shown) => shown.includes(text));
    if (at >= 0) return { id: declaration.id, time: times[at] };
  }
  return undefined;
}

/** Sets the variable to {@link OVERRIDE_TEXT} with the playhead parked at its time and waits for the text to show. */
async function checkOverride(page, pageModule, variable) {
  await inPage(page, pageModule, 'seekWithin', variable.time, SEEK_TIMEOUT_MS);
  const expected = normalize(OVERRIDE_TEXT);
  const started = performance.now();
  await inPage(page, pageModule, 'setVariables', { [variable.id]: OVERRIDE_TEXT });
  while (!(await shownText(page)).includes(expected)) {
    if (performance.now() - started > OVERRIDE_TIMEOUT_MS)
      return { ok: false, reason: `"${variable.id}" override not shown within ${OVERRIDE_TIMEOUT_MS / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, OVERRIDE_POLL_MS));
  }
  const visibleMs = performance.now() - started;
  const state = await inPage(page, pageModule, 'playerState');
  const kept = Math.abs(state.currentTime - variable.time) <= LANDING_TOLERANCE && state.paused;
  return kept
    ? { ok: true, visibleMs }
    : {
        ok: false,
        visibleMs,
        reason: `"${variable.id}" shown, but the playhead moved ${variable.time} → ${state.currentTime} s (paused: ${state.paused})`,
      };
}

/** Loads and checks one block; returns `{ external, checks: { name: true | false | null }, reasons, ... }`. */
async function checkBlock(context, opened, kind, block) {
  const { page, pageModule, watch } = opened;
  watch.external.length = 0;
  watch.errors.length = 0;
  // `null`: the check does not apply (no root duration to compare, no text variable, or not ready to tell). A block
  // without a root duration is compared with the peer's once both ran (`compareTimelineDuration`).
  const checks = { ready: false, duration: false, seeks: false, clean: false, overrides: null };
  const reasons = [];
  const result = { checks, reasons };
  const started = performance.now();
  try {
    await inPage(page, pageModule, 'load', kind, await context.url(block.path), { timeoutMs: LOAD_TIMEOUT_MS });
    checks.ready = true;
  } catch (error) {
    reasons.push(`ready: ${briefly(error)}`);
  }
  if (!Number.isFinite(block.duration)) checks.duration = null;
  if (checks.ready) {
    const state = await inPage(page, pageModule, 'playerState');
    result.duration = state.duration;
    if (checks.duration !== null) checks.duration = Math.abs(state.duration - block.duration) < 1e-3;
    if (checks.duration === false)
      reasons.push(`duration: reports ${state.duration} s, the root says ${block.duration} s`);
    const times = SEEK_FRACTIONS.map((fraction) => Math.round(fraction * state.duration * 1000) / 1000);
    const strings = state.declarations.filter((declaration) => declaration.type === 'string');
    const { landed, texts } = await seekAll(page, pageModule, times, kind === 'fx' && strings.length > 0);
    const missed = times.findIndex((time, k) => !(Math.abs(landed[k] - time) <= LANDING_TOLERANCE));
    checks.seeks = missed < 0;
    if (!checks.seeks) reasons.push(`seeks: seek(${times[missed]}) → ${landed[missed]}`);
    if (kind === 'fx') {
      const variable = visibleTextVariable(strings, times, texts);
      result.textVariable = variable ?? null;
      if (variable) {
        const override = await checkOverride(page, pageModule, variable);
        checks.overrides = override.ok;
        result.overrideVisibleMs = override.visibleMs;
        if (!override.ok) reasons.push(`overrides: ${override.reason}`);
      }
    }
  }
  checks.clean = watch.errors.length === 0;
  if (!checks.clean) reasons.push(...[...new Set(watch.errors)].slice(0, 3).map((error) => `clean: ${error}`));
  result.external = [...new Set(watch.external)];
  result.ms = Math.round(performance.now() - started);
  return result;
}

/**
 * Checks every block of `blocks` with each of `kinds` (`fx`, `peer`). Returns `{ [block]: { [kind]: result } }`
 * (see `checkBlock`). A page whose block failed to get ready or to seek, or requested beyond localhost, is
 * replaced, and each block waits for the browser to paint promptly (see `untilPaintsPromptly`), so one broken or
 * heavy block cannot taint the next.
 * Blocks the first player found requesting beyond localhost are not loaded by the others: our load records every
 * request (the compiler's in the host, the frame's own), so the first kind should be `fx`.
 */
export async function checkBlocks(context, { blocks, peer, kinds, log = () => {} }) {
  const results = Object.fromEntries(blocks.map((block) => [block.name, {}]));
  for (const kind of kinds) {
    let opened = await openWatchedPage(context, kind, peer);
    try {
      for (const block of blocks) {
        if (kind !== kinds[0] && results[block.name][kinds[0]].external.length > 0) continue;
        const waited = await inPage(opened.page, opened.pageModule, 'untilPaintsPromptly');
        if (waited > 1000)
          log(`${kind} ${block.name}: waited ${Math.round(waited)} ms for the browser to paint promptly`);
        const result = await checkBlock(context, opened, kind, block);
        results[block.name][kind] = result;
        if (result.reasons.length > 0) log(`${kind} ${block.name}: ${result.reasons.join('; ')}`);
        // A new page for the next block after one that broke or reached beyond localhost. The GPU work such a block
        // queued outlives its page (vfx-text-cursor's canvas, software-rendered, starved the block after it of frames
        // for a minute), but the old page, its player removed, could paint promptly before that work came back; a
        // new page's first paints wait for it, so `untilPaintsPromptly` sees it.
        if (!result.checks.ready || !result.checks.seeks || result.external.length > 0) {
          await opened.close();
          opened = await openWatchedPage(context, kind, peer);
        }
      }
    } finally {
      await opened.close();
    }
  }
  for (const block of blocks) compareTimelineDuration(block, results[block.name]);
  return results;
}

/**
 * A block without a root `data-duration` lasts as long as its registered timeline, which the peer measures too:
 * there, ours is checked against the duration the peer reports, when both got ready.
 */
function compareTimelineDuration(block, byKind) {
  const reference = byKind.peer?.duration;
  const result = byKind.fx;
  if (Number.isFinite(block.duration) || !(reference > 0) || result?.duration === undefined) return;
  result.checks.duration = Math.abs(result.duration - reference) < 1e-3;
  if (!result.checks.duration)
    result.reasons.push(`duration: reports ${result.duration} s, the peer's timeline ${reference} s`);
}

/**
 * Offline-capable blocks (no player made a request leaving localhost) and, for each check, `{ fx, peer }` counts
 * `{ passed, of }` over them (`of` leaves out blocks where the check does not apply) and the failing blocks.
 */
export function summarizeChecks(results, kinds) {
  const offline = Object.keys(results).filter((name) =>
    kinds.every((kind) => results[name][kind]?.external.length === 0),
  );
  const external = Object.fromEntries(
    Object.entries(results)
      .filter(([name]) => !offline.includes(name))
      .map(([name, byKind]) => [name, [...new Set(kinds.flatMap((kind) => byKind[kind]?.external ?? []))]]),
  );
  const counts = {};
  const failures = {};
  for (const check of CHECKS) {
    counts[check] = {};
    failures[check] = {};
    for (const kind of kinds) {
      const applies = offline.filter((name) => results[name][kind].checks[check] !== null);
      const failed = applies.filter((name) => !results[name][kind].checks[check]);
      if (applies.length === 0) continue;
      counts[check][kind] = { passed: applies.length - failed.length, of: applies.length };
      failures[check][kind] = Object.fromEntries(
        failed.map((name) => [
          name,
          results[name][kind].reasons.filter((reason) => reason.startsWith(`${check}:`)).join('; ') || 'not ready',
        ]),
      );
    }
  }
  return { offline, external, counts, failures };
}
