// The compositions the player benchmarks load (Node side): the shared set under bench/compositions/, and the
// 100-variable / 200-binding document of the bindings benchmark, built from its fixture for the live-update test.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const FOLDER = 'bench/compositions';
const NAME = /^\d\d-[a-z0-9-]+$/;
// A composition that only one player can load says so: <meta name="bench-players" content="fx">.
const PLAYERS_META = /<meta\s+name="bench-players"\s+content="([^"]*)"/i;
const ALL_PLAYERS = ['fx', 'peer'];

/** `{ name, path, players }` for every `bench/compositions/NN-name/index.html`, in name order. */
export async function listCompositions(root) {
  const names = (await readdir(join(root, FOLDER), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && NAME.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const compositions = [];
  for (const name of names) {
    const html = await readFile(join(root, FOLDER, name, 'index.html'), 'utf8');
    const declared = PLAYERS_META.exec(html)?.[1];
    const players = declared ? declared.split(/[\s,]+/).filter((player) => ALL_PLAYERS.includes(player)) : ALL_PLAYERS;
    compositions.push({ name, path: `/${FOLDER}/${name}/index.html`, players });
  }
  if (compositions.length === 0) throw new Error(`no compositions found under "${FOLDER}"`);
  return compositions;
}

export const VARIABLES_FIXTURE_PATH = '/bench/player/__generated/variables-100.html';
const FIXTURE_MODULE = '/bench/bindings/fixture.mjs';
const FIXTURE_DURATION = 4;

/**
 * Builds the bindings benchmark's composition (100 variables, 200 bindings) in a real page with its own fixture
 * code and the runtime's attribute table, adds a duration and a small timeline (HyperFrames needs one), serves it
 * and returns `{ url, html, compositionId }`. Both players load this same document.
 */
export async function serveVariablesFixture(context, page) {
  const runtimeUrl = await context.serveBundle('src/runtime/index.ts', '/__bench/player-runtime.js');
  const fixtureUrl = await context.url(FIXTURE_MODULE);
  const { rootHtml, compositionId } = await page.evaluate(
    async ({ fixtureUrl, runtimeUrl, duration }) => {
      const { buildComposition } = await import(fixtureUrl);
      const { Attr } = await import(runtimeUrl);
      const { root } = buildComposition(document, Attr);
      root.setAttribute(Attr.duration, String(duration));
      root.id = 'stage';
      return { rootHtml: root.outerHTML, compositionId: root.getAttribute(Attr.compositionId) };
    },
    { fixtureUrl, runtimeUrl, duration: FIXTURE_DURATION },
  );
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>100 variables, 200 bindings</title>
  <script src="/bench/compositions/shared/mini-gsap.js"></script>
  <style>html, body { margin: 0; }</style>
</head>
<body>
${rootHtml}
<script>
  (function () {
    var tl = gsap.timeline({ paused: true });
    tl.fromTo('#stage > section', { opacity: 0.5 }, { opacity: 1, duration: 0.5, stagger: 0.1 }, 0);
    tl.set({}, {}, ${FIXTURE_DURATION});
    window.__timelines = window.__timelines || {};
    window.__timelines[${JSON.stringify(compositionId)}] = tl;
  })();
</script>
</body>
</html>
`;
  const url = await context.serve(VARIABLES_FIXTURE_PATH, html, 'text/html; charset=utf-8');
  return { url, html, compositionId };
}
