// The demo page: a composition next to a form that edits its variables live. Uses only the public entry point.
import 'fx-sdk';
import { renderVariablesForm } from './variables-form.js';

const preview = document.getElementById('preview');
const form = document.getElementById('variables-form');
const json = document.getElementById('variables-json');
const jsonError = document.getElementById('json-error');
const issues = document.getElementById('issues');
const status = document.getElementById('status');

let overrides = {};

function setOverrides(next) {
  overrides = next;
  preview.variables = overrides;
  json.value = JSON.stringify(overrides, null, 2);
}

preview.addEventListener('ready', () => {
  const { id, width, height } = preview.metadata ?? {};
  status.textContent = `${id ?? 'composition'} · ${width}×${height} · ${preview.duration} s`;
  renderVariablesForm(form, preview.declarations, overrides, (variable, value) => setOverrides({ ...overrides, [variable]: value }));
});

preview.addEventListener('variableschange', (event) => {
  issues.replaceChildren(...event.detail.issues.map((found) => Object.assign(document.createElement('li'), { textContent: found.message })));
});

preview.addEventListener('error', (event) => {
  status.textContent = `Error ${event.detail.code}: ${event.detail.message}`;
});

json.addEventListener('input', () => {
  try {
    const parsed = JSON.parse(json.value || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('overrides must be a JSON object');
    jsonError.textContent = '';
    overrides = parsed;
    preview.variables = overrides;
    renderVariablesForm(form, preview.declarations, overrides, (variable, value) => setOverrides({ ...overrides, [variable]: value }));
  } catch (error) {
    jsonError.textContent = error.message;
  }
});

json.value = '{}';
