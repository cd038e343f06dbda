// The composition the bindings benchmark measures (browser code): 100 declared variables of mixed types and 200
// bindings, plus the override values for each iteration, chosen so that every value changes every time.

const ENUM_OPTIONS = ['left', 'center', 'right'];

// [type, id prefix, count]: 100 variables in all.
const VARIABLE_MIX = [
  ['string', 's', 30],
  ['number', 'n', 20],
  ['color', 'c', 20],
  ['boolean', 'b', 10],
  ['enum', 'e', 10],
  ['image', 'i', 10],
];

const hex = (number) => `#${(number & 0xffffff).toString(16).padStart(6, '0')}`;

// Small inline images: `data:image/` URLs pass the safety check and need no server round trip.
const IMAGE_URLS = Array.from({ length: 8 }, (_, k) => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="${hex(0x1f3a5f * (k + 1))}"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
});

/** The 100 variables as `{ type, id, index }` (index counts within the type). */
export function variableList() {
  return VARIABLE_MIX.flatMap(([type, prefix, count]) =>
    Array.from({ length: count }, (_, index) => ({ type, id: `${prefix}${index}`, index })),
  );
}

function declare({ type, id, index }) {
  const common = { id, type, label: `${type} ${index}` };
  switch (type) {
    case 'string':
      return { ...common, default: `text ${index}`, maxLength: 80 };
    case 'number':
      return { ...common, default: 50, min: 0, max: 100, step: 1 };
    case 'color':
      return { ...common, default: '#808080' };
    case 'boolean':
      return { ...common, default: false };
    case 'enum':
      return { ...common, default: ENUM_OPTIONS[0], options: ENUM_OPTIONS.map((value) => ({ value, label: value })) };
    case 'image':
      return { ...common, default: IMAGE_URLS[0] };
  }
  throw new Error(`unknown variable type "${type}"`);
}

/** The value of a variable at `iteration`; consecutive iterations always differ. */
export function valueAt({ type, index }, iteration) {
  switch (type) {
    case 'string':
      return `headline ${index} · take ${iteration}`;
    case 'number':
      return (iteration * 7 + index) % 101; // 7 is not a multiple of 101, so the next value always differs
    case 'color':
      return hex(Math.imul(iteration + 1, 0x9e3779b1) + index * 0x10101); // odd multiplier: never repeats the last
    case 'boolean':
      return (iteration + index) % 2 === 0;
    case 'enum':
      return ENUM_OPTIONS[(iteration + index) % ENUM_OPTIONS.length];
    case 'image':
      return IMAGE_URLS[(iteration + index) % IMAGE_URLS.length];
  }
  throw new Error(`unknown variable type "${type}"`);
}

/** Overrides for every declared variable at `iteration`. */
export function overridesAt(variables, iteration) {
  return Object.fromEntries(variables.map((variable) => [variable.id, valueAt(variable, iteration)]));
}

// 80 elements styled through CSS custom properties; `#` in `css` becomes the variable index. The first element
// of an entry with `probe` is where the benchmark reads that computed property back.
const STYLED = [
  { css: 'background-color: var(--c#)', prefix: 'c', first: 0, count: 20 },
  { css: 'color: var(--c#)', prefix: 'c', first: 0, count: 10, probe: 'color' },
  { css: 'border: 2px solid; border-color: var(--c#)', prefix: 'c', first: 10, count: 10 },
  { css: 'width: calc(var(--n#) * 1px)', prefix: 'n', first: 0, count: 20, probe: 'width' },
  { css: 'opacity: calc(var(--n#) / 100)', prefix: 'n', first: 0, count: 10 },
  { css: 'text-align: var(--e#)', prefix: 'e', first: 0, count: 10 },
];

const SCENES = 20;

/**
 * Builds the composition root (not yet attached): `data-composition-variables` holds the declarations;
 * 100 `data-var-text` spans, 20 `data-var-src` images and 80 `var(--id)`-styled boxes (`styled`) spread over
 * 20 scenes. `probes.color` / `probes.width` name an element and the variable its computed property shows.
 * `Attr` is the runtime's attribute-name table, so no attribute name is spelled here.
 */
export function buildComposition(document, Attr) {
  const variables = variableList();
  const root = document.createElement('div');
  root.setAttribute(Attr.compositionId, 'bindings-bench');
  root.setAttribute(Attr.width, '1920');
  root.setAttribute(Attr.height, '1080');
  root.setAttribute(Attr.compositionVariables, JSON.stringify(variables.map(declare)));
  root.style.cssText = 'position: relative; width: 1920px; height: 1080px; overflow: hidden; font: 14px sans-serif';

  const scenes = Array.from({ length: SCENES }, () => {
    const scene = document.createElement('section');
    scene.style.cssText = 'display: flex; flex-wrap: wrap; gap: 4px; align-items: center';
    root.append(scene);
    return scene;
  });
  let placed = 0;
  const place = (element) => scenes[placed++ % SCENES].append(element);

  const textIds = variables
    .filter((variable) => ['string', 'number', 'boolean', 'enum'].includes(variable.type))
    .map((variable) => variable.id);
  for (let k = 0; k < 100; k++) {
    const span = document.createElement('span');
    span.setAttribute(Attr.varText, textIds[k % textIds.length]);
    span.textContent = 'authored';
    place(span);
  }
  const imageIds = variables.filter((variable) => variable.type === 'image').map((variable) => variable.id);
  for (let k = 0; k < 20; k++) {
    const image = document.createElement('img');
    image.setAttribute(Attr.varSrc, imageIds[k % imageIds.length]);
    image.alt = '';
    image.width = 8;
    image.height = 8;
    place(image);
  }
  const styled = [];
  const probes = {};
  for (const { css, prefix, first, count, probe } of STYLED) {
    for (let k = first; k < first + count; k++) {
      const box = document.createElement('div');
      box.style.cssText = `display: inline-block; min-height: 10px; min-width: 4px; ${css.replace('#', String(k))}`;
      if (prefix === 'e') box.style.width = '120px';
      box.textContent = prefix === 'n' ? '' : 'box';
      place(box);
      styled.push(box);
      if (probe && k === first) probes[probe] = { element: box, id: `${prefix}${k}` };
    }
  }
  return { root, variables, styled, probes };
}
