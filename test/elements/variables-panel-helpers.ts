/** Mounting an `<fx-variables-panel>` next to an `<fx-composition>`, and driving its controls as a user would. */
import '../../src/elements/panel/define.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import type { FxVariablesPanel } from '../../src/elements/panel/fx-variables-panel.js';
import { compositionHtml, mount, track, waitFor, whenReady, type CompositionOptions } from './helpers.js';

export const FONT_SIZE = 20;
/** "WWW" in FxWide is 3 × 3 em; any fallback font is far narrower. */
export const WIDE_WIDTH = 3 * 3 * FONT_SIZE;
export const FONT_URL = '/test/fixtures/no-cors/fx-wide.ttf';

/** One variable of every type, each bound or used by the composition but `extra`. */
export const ALL_TYPES = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hello', placeholder: 'Your title', maxLength: 10 },
  { id: 'size', type: 'number', label: 'Size', default: 20, min: 10, max: 40, step: 2, unit: 'px' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
  { id: 'shown', type: 'boolean', label: 'Shown', default: true },
  {
    id: 'mood',
    type: 'enum',
    label: 'Mood',
    default: 'calm',
    options: [
      { value: 'calm', label: 'Calm' },
      { value: 'loud', label: 'Loud' },
    ],
  },
  { id: 'face', type: 'font', label: 'Face', default: 'monospace' },
  { id: 'logo', type: 'image', label: 'Logo', default: '' },
  { id: 'extra', type: 'string', label: 'Extra', default: '' },
];

export const ALL_TYPES_BODY = `<h1 id="title" data-var-text="title" style="color: var(--accent); font-size: calc(var(--size) * 1px)">Hello</h1>
<p id="shown" data-var-text="shown"></p><p id="mood" data-var-text="mood"></p>
<span id="wide" style="font-size: ${FONT_SIZE}px; font-family: var(--face), monospace; white-space: pre">WWW</span>
<img id="logo" data-var-src="logo" alt="">`;

let ids = 0;

/** A composition (with an id) and a panel bound to it with `for`, both ready. */
export async function mountPair(
  options: CompositionOptions = {},
  attributes: Record<string, string> = {},
): Promise<{ composition: FxComposition; panel: FxVariablesPanel }> {
  const id = `composition-${++ids}`;
  const composition = await whenReady(
    mount(
      { id, ...attributes },
      { srcdoc: compositionHtml({ variables: ALL_TYPES, body: ALL_TYPES_BODY, ...options }) },
    ),
  );
  const panel = track(document.body, Object.assign(document.createElement('fx-variables-panel'), { for: id }));
  await waitFor(() => panel.html !== undefined, 'the panel to read the composition');
  await panel.updateComplete;
  return { composition, panel };
}

/** The element matching `selector` in the field of variable `id`. */
export function inField<T extends Element = HTMLInputElement>(
  panel: FxVariablesPanel,
  id: string,
  selector = 'input',
): T {
  const field = [...panel.shadowRoot!.querySelectorAll<HTMLElement>('[part~="field"]')].find(
    (element) => element.dataset.id === id,
  );
  const found = field?.querySelector<T>(selector);
  if (!found) throw new Error(`no ${selector} in the field of "${id}"`);
  return found;
}

/** A part of the panel by name. */
export function partOf<T extends Element = HTMLElement>(panel: FxVariablesPanel, name: string): T {
  const found = panel.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
  if (!found) throw new Error(`no part "${name}"`);
  return found;
}

/** Types `value` into `input` (one `input` event, as a paste). */
export function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** Chooses `value` in `select`. */
export function choose(select: HTMLSelectElement, value: string): void {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

/** Puts `files` into a file input, as the picker does. */
export function pickFiles(input: HTMLInputElement, files: File[]): void {
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

/** A small PNG of one color. */
export async function pngFile(name = 'logo.png', color = '#00ff00'): Promise<File> {
  const canvas = new OffscreenCanvas(8, 8);
  const context = canvas.getContext('2d')!;
  context.fillStyle = color;
  context.fillRect(0, 0, 8, 8);
  return new File([await canvas.convertToBlob({ type: 'image/png' })], name, { type: 'image/png' });
}
