// The demo page: a composition, its variables panel and a render button. Uses only the public entry point, which
// registers all three elements; everything else is wired by their `for` attributes.
import 'fx-sdk';

const preview = document.getElementById('preview');
const status = document.getElementById('status');

preview.addEventListener('ready', () => {
  const { id, width, height } = preview.metadata ?? {};
  status.textContent = `${id ?? 'composition'} · ${width}×${height} · ${preview.duration} s`;
});

preview.addEventListener('error', (event) => {
  status.textContent = `Error ${event.detail.code}: ${event.detail.message}`;
});
