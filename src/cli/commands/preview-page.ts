/**
 * The page of `fx preview`: `<fx-composition>` with controls, the `<fx-variables-panel>` when the bundle defines it
 * (else a JSON box of the values), and a poll of the project's version: on a change the composition reloads
 * (keeping its values), seeks back to where it was and plays on if it was playing.
 */
export const VERSION_DOCUMENT = 'version';
export const POLL_MS = 400;

/** The page as served while the project is at `version` (so an edit made before its first poll is not missed). */
export function previewPage(entry: string, version: number): string {
  const entryUrl = `../../${entry.split('/').map(encodeURIComponent).join('/')}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fx preview · ${escapeHtml(entry)}</title><link rel="icon" href="data:,">
<style>
  html, body { margin: 0; height: 100%; font: 14px system-ui, sans-serif; background: #111; color: #eee; }
  body { display: grid; grid-template-columns: 1fr minmax(280px, 360px); }
  main { min-width: 0; display: grid; place-items: center; padding: 16px; }
  fx-composition { width: 100%; max-height: calc(100vh - 32px); }
  aside { overflow: auto; padding: 16px; background: #1b1b1b; }
  textarea { width: 100%; min-height: 240px; font: 12px ui-monospace, monospace; }
  .issue { color: #f87171; }
</style>
<script src="../fx.iife.js"></script></head>
<body>
<main><fx-composition id="composition" src="${escapeHtml(entryUrl)}" controls></fx-composition></main>
<aside id="side"></aside>
<script>
  const composition = document.getElementById('composition');
  const side = document.getElementById('side');
  if (customElements.get('fx-variables-panel')) {
    const panel = document.createElement('fx-variables-panel');
    panel.setAttribute('for', 'composition');
    side.append(panel);
  } else {
    side.innerHTML = '<label for="values">Variables (JSON)</label><textarea id="values" spellcheck="false"></textarea><p class="issue" id="issue"></p>';
    const box = side.querySelector('textarea'), issue = side.querySelector('#issue');
    composition.addEventListener('ready', () => { box.value = JSON.stringify(composition.variables, null, 2); });
    box.addEventListener('input', () => {
      try { composition.variables = JSON.parse(box.value); issue.textContent = ''; } catch (error) { issue.textContent = String(error.message); }
    });
  }
  let version = ${JSON.stringify(String(version))};
  // Where to go back to once the new load is ready; kept while reloads follow each other, so a second edit during
  // a reload does not read the time of the half-loaded one.
  let restore = null;
  composition.addEventListener('ready', async () => {
    if (!restore) return;
    const { time, playing } = restore;
    restore = null;
    await composition.seek(time);
    if (playing) composition.play();
  });
  setInterval(async () => {
    const next = await fetch('${VERSION_DOCUMENT}.html', { cache: 'no-store' }).then((response) => response.text(), () => version);
    if (next !== version) {
      // The element keeps its variables across a new src; the time and play state are put back here.
      restore ??= { time: composition.currentTime, playing: !composition.paused };
      composition.setAttribute('src', ${JSON.stringify(entryUrl)} + '?v=' + encodeURIComponent(next));
    }
    version = next;
  }, ${POLL_MS});
</script>
</body></html>
`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
