// The demo page: a composition picker, the preview, its variables panel, the render button and the batch box. Uses
// only the public entry point, which registers the three elements; they are wired by their `for` attributes.
import 'fx-sdk';
import { COMPOSITIONS, compositionSrc, projectDir } from './compositions.js';
import { BatchBox } from './batch.js';

const preview = document.getElementById('preview');
const panel = document.querySelector('fx-variables-panel');
const picker = document.getElementById('picker');
const status = document.getElementById('status');
const batch = new BatchBox(document.getElementById('batch'), preview);

for (const { id, label } of COMPOSITIONS) picker.add(new Option(label, id));

/** Shows composition `id`: its own defaults (the previous one's values would be undeclared here) and sample rows. */
function show(id) {
  const found = COMPOSITIONS.find((composition) => composition.id === id) ?? COMPOSITIONS[0];
  picker.value = found.id;
  preview.variables = {};
  preview.src = compositionSrc(found.id);
  panel.projectDir = projectDir(found.id);
  batch.setSample(found.batch);
  if (location.hash.slice(1) !== found.id) history.replaceState(null, '', `#${found.id}`);
}

picker.addEventListener('change', () => show(picker.value));
show(location.hash.slice(1));

preview.addEventListener('ready', () => {
  const { id, width, height } = preview.metadata ?? {};
  status.textContent = `${id ?? 'composition'} · ${width}×${height} · ${preview.duration} s`;
  batch.check();
});
preview.addEventListener('variableschange', () => batch.check());
preview.addEventListener('error', (event) => {
  status.textContent = `Error ${event.detail.code}: ${event.detail.message}`;
});
