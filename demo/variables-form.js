// Builds type-appropriate inputs from a composition's declarations and reports each edit as a value.

const inputFor = {
  string: (declaration, value) => attrs(el('input'), { type: 'text', value, placeholder: declaration.placeholder ?? '', maxLength: declaration.maxLength ?? 524288 }),
  font: (declaration, value) => attrs(el('input'), { type: 'text', value: typeof value === 'object' ? value.name : value }),
  image: (declaration, value) => attrs(el('input'), { type: 'text', value: typeof value === 'object' ? value.url : value, inputMode: 'url' }),
  color: (declaration, value) => attrs(el('input'), { type: 'color', value }),
  boolean: (declaration, value) => attrs(el('input'), { type: 'checkbox', checked: value === true }),
  number: (declaration, value) =>
    attrs(el('input'), { type: 'range', min: declaration.min ?? 0, max: declaration.max ?? 100, step: declaration.step ?? 'any', value }),
  enum: (declaration, value) => {
    const select = el('select');
    for (const option of declaration.options) select.append(attrs(el('option'), { value: option.value, textContent: option.label, selected: option.value === value }));
    return select;
  },
};

const readValue = {
  boolean: (input) => input.checked,
  number: (input) => Number(input.value),
};

function el(tag) {
  return document.createElement(tag);
}

function attrs(element, properties) {
  return Object.assign(element, properties);
}

/** Renders one field per declaration into `form`; `onChange(id, value)` fires on every edit. */
export function renderVariablesForm(form, declarations, values, onChange) {
  form.replaceChildren();
  for (const declaration of declarations) {
    const id = `var-${declaration.id}`;
    const field = attrs(el('div'), { className: 'field' });
    const label = attrs(el('label'), { htmlFor: id, textContent: declaration.label });
    const input = (inputFor[declaration.type] ?? inputFor.string)(declaration, values[declaration.id] ?? declaration.default);
    input.id = id;
    const row = attrs(el('div'), { className: 'row' });
    row.append(input);
    if (declaration.type === 'number') {
      const output = attrs(el('output'), { htmlFor: id, value: String(input.value) });
      input.addEventListener('input', () => (output.value = input.value));
      row.append(output);
    }
    input.addEventListener(input.type === 'checkbox' || input.localName === 'select' ? 'change' : 'input', () => {
      onChange(declaration.id, (readValue[declaration.type] ?? ((target) => target.value))(input));
    });
    field.append(label, row);
    form.append(field);
  }
}
