import { expect } from '@open-wc/testing';
import { parseVariableDeclarations, type VariableDeclaration } from '../../src/runtime/declarations.js';
import { FxError } from '../../src/runtime/errors.js';
import { validateVariables } from '../../src/runtime/values.js';

// One declaration per type, parsed the way a composition would declare them.
function declare(list: unknown[]): VariableDeclaration[] {
  const { declarations, issues } = parseVariableDeclarations(list);
  expect(issues, 'test declarations must be valid').to.deep.equal([]);
  return declarations;
}

const declarations = declare([
  { id: 'title', type: 'string', label: 'Title', default: 'Hi', maxLength: 10 },
  { id: 'size', type: 'number', label: 'Size', default: 3, min: 0, max: 10 },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
  { id: 'on', type: 'boolean', label: 'On', default: false },
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
  { id: 'face', type: 'font', label: 'Font', default: 'Inter' },
  { id: 'logo', type: 'image', label: 'Logo', default: 'logo.png' },
]);

const summary = (values: unknown) =>
  validateVariables(values, declarations).map((found) => ({
    code: found.code,
    severity: found.severity,
    path: found.path,
  }));

describe('validateVariables: accepted values', () => {
  const accepted: [string, unknown][] = [
    ['title', 'Hello'],
    ['title', ''],
    ['title', '0123456789'], // exactly maxLength
    ['size', 0], // min
    ['size', 10], // max
    ['size', 3.5],
    ['accent', '#a0b1c2'],
    ['accent', '#ABCDEF'], // upper-case hex
    ['on', true],
    ['on', false],
    ['mood', 'loud'],
    ['face', 'Fira Sans'],
    ['face', { name: 'Inter' }],
    ['face', { name: 'Inter', source: 'fonts/inter.woff2' }],
    ['logo', 'https://example.com/logo.png'],
    ['logo', { url: 'logo.png' }],
  ];
  for (const [id, value] of accepted) {
    it(`accepts ${id} = ${JSON.stringify(value)}`, () => {
      expect(validateVariables({ [id]: value }, declarations)).to.deep.equal([]);
    });
  }

  it('accepts an empty object and a full set of valid values together', () => {
    expect(validateVariables({}, declarations)).to.deep.equal([]);
    expect(validateVariables(Object.fromEntries(accepted), declarations)).to.deep.equal([]);
  });
});

describe('validateVariables: type-mismatch', () => {
  const mismatched: [string, string, unknown][] = [
    ['a number for a string', 'title', 42],
    ['null for a string', 'title', null],
    ['an array for a string', 'title', ['Hi']],
    ['a numeric string for a number', 'size', '3'],
    ['NaN for a number', 'size', NaN],
    ['Infinity for a number', 'size', Infinity],
    ['-Infinity for a number', 'size', -Infinity],
    ['a boolean for a number', 'size', true],
    ['a short hex color', 'accent', '#fff'],
    ['a named color', 'accent', 'red'],
    ['non-hex digits', 'accent', '#GGGGGG'],
    ['hex without "#"', 'accent', 'a0b1c2'],
    ['an 8-digit hex color', 'accent', '#a0b1c2ff'],
    ['a color with trailing space', 'accent', '#a0b1c2 '],
    ['a number for a color', 'accent', 0xffffff],
    ['the string "true" for a boolean', 'on', 'true'],
    ['1 for a boolean', 'on', 1],
    ['a number for an enum', 'mood', 1],
    ['a boolean for an enum', 'mood', true],
    ['an option object for an enum', 'mood', { value: 'calm' }],
    ['a number for a font', 'face', 3],
    ['a font object without a name', 'face', {}],
    ['a font object with a non-string name', 'face', { name: 3 }],
    ['a font object with a non-string source', 'face', { name: 'Inter', source: 3 }],
    ['a font object with a null source', 'face', { name: 'Inter', source: null }],
    ['an array for a font', 'face', ['Inter']],
    ['a number for an image', 'logo', 3],
    ['an image object without a url', 'logo', { href: 'logo.png' }],
    ['an image object with a non-string url', 'logo', { url: 3 }],
    ['null for an image', 'logo', null],
  ];
  for (const [name, id, value] of mismatched) {
    it(`refuses ${name}`, () => {
      expect(summary({ [id]: value })).to.deep.equal([{ code: 'type-mismatch', severity: 'error', path: [id] }]);
    });
  }

  it('names the variable, its type and what came in the message', () => {
    const [found] = validateVariables({ size: '3' }, declarations);
    expect(found!.message).to.equal('variable "size" is declared as number and expects a finite number, got "3"');
  });
});

describe('validateVariables: enum-out-of-range', () => {
  it('refuses a string that is not an option', () => {
    expect(summary({ mood: 'angry' })).to.deep.equal([
      { code: 'enum-out-of-range', severity: 'error', path: ['mood'] },
    ]);
  });

  it('compares options case-sensitively', () => {
    expect(summary({ mood: 'Calm' })).to.deep.equal([{ code: 'enum-out-of-range', severity: 'error', path: ['mood'] }]);
  });

  it('refuses an option label used as a value', () => {
    const { declarations: labelled } = parseVariableDeclarations([
      { id: 'pick', type: 'enum', label: 'Pick', default: 'a', options: [{ value: 'a', label: 'Alpha' }] },
    ]);
    expect(validateVariables({ pick: 'Alpha' }, labelled).map((found) => found.code)).to.deep.equal([
      'enum-out-of-range',
    ]);
  });
});

describe('validateVariables: warnings', () => {
  const warned: [string, string, unknown, string][] = [
    ['a number below min', 'size', -0.5, 'out-of-range'],
    ['a number above max', 'size', 10.01, 'out-of-range'],
    ['a string longer than maxLength', 'title', '01234567890', 'too-long'],
    ['an undeclared key', 'subtitle', 'x', 'undeclared'],
  ];
  for (const [name, id, value, code] of warned) {
    it(`warns ${code} for ${name}`, () => {
      expect(summary({ [id]: value })).to.deep.equal([{ code, severity: 'warning', path: [id] }]);
    });
  }

  it('checks min and max only where declared', () => {
    const open = declare([
      { id: 'low', type: 'number', label: 'Low', default: 0, min: 0 },
      { id: 'high', type: 'number', label: 'High', default: 0, max: 0 },
    ]);
    expect(validateVariables({ low: 1e9, high: -1e9 }, open)).to.deep.equal([]);
    expect(validateVariables({ low: -1, high: 1 }, open).map((found) => [found.code, found.path[0]])).to.deep.equal([
      ['out-of-range', 'low'],
      ['out-of-range', 'high'],
    ]);
  });
});

describe('validateVariables: values-invalid', () => {
  const notObjects: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['an array', [{ title: 'Hi' }]],
    ['a string', '{"title":"Hi"}'],
    ['a number', 42],
    ['a boolean', true],
  ];
  for (const [name, values] of notObjects) {
    it(`refuses ${name} as the values`, () => {
      expect(summary(values)).to.deep.equal([{ code: 'values-invalid', severity: 'error', path: [] }]);
    });
  }

  it('puts the given path on values-invalid', () => {
    const [found] = validateVariables([], declarations, { path: ['data-variable-values'] });
    expect(found!.path).to.deep.equal(['data-variable-values']);
  });
});

describe('validateVariables: paths and ordering', () => {
  it('prefixes every issue path with options.path', () => {
    const issues = validateVariables({ size: 'x', extra: 1 }, declarations, { path: ['data-variable-values'] });
    expect(issues.map((found) => found.path)).to.deep.equal([
      ['data-variable-values', 'size'],
      ['data-variable-values', 'extra'],
    ]);
  });

  it('reports every bad key, one issue each, in key order', () => {
    const issues = validateVariables({ title: 1, size: 99, accent: 'red', mood: 'x', extra: true }, declarations);
    expect(issues.map((found) => [found.code, found.path[0]])).to.deep.equal([
      ['type-mismatch', 'title'],
      ['out-of-range', 'size'],
      ['type-mismatch', 'accent'],
      ['enum-out-of-range', 'mood'],
      ['undeclared', 'extra'],
    ]);
  });
});

describe('validateVariables: strict', () => {
  function thrown(run: () => unknown): FxError {
    try {
      run();
    } catch (error) {
      expect(error).to.be.instanceOf(FxError);
      return error as FxError;
    }
    throw new Error('expected an FxError to be thrown');
  }

  it('throws variables_invalid carrying the issues on an error', () => {
    const error = thrown(() => validateVariables({ size: 'big' }, declarations, { strict: true }));
    expect(error.code).to.equal('variables_invalid');
    expect(error.issues.map((found) => found.code)).to.deep.equal(['type-mismatch']);
  });

  it('throws even when the only issues are warnings', () => {
    const error = thrown(() => validateVariables({ extra: 1, size: 11 }, declarations, { strict: true }));
    expect(error.code).to.equal('variables_invalid');
    expect(error.issues.map((found) => [found.code, found.severity])).to.deep.equal([
      ['undeclared', 'warning'],
      ['out-of-range', 'warning'],
    ]);
  });

  it('throws on values that are not an object', () => {
    const error = thrown(() => validateVariables(null, declarations, { strict: true, path: ['--variables'] }));
    expect(error.code).to.equal('variables_invalid');
    expect(error.issues.map((found) => [found.code, found.path])).to.deep.equal([['values-invalid', ['--variables']]]);
  });

  it('returns no issues and does not throw when everything is valid', () => {
    expect(validateVariables({ title: 'Ok', size: 1 }, declarations, { strict: true })).to.deep.equal([]);
    expect(validateVariables({}, declarations, { strict: true })).to.deep.equal([]);
  });
});

describe('validateVariables: hostile keys', () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.prototype.toString.call([])).to.equal('[object Array]');
  });

  it('reports __proto__, constructor and toString as undeclared own keys without touching prototypes', () => {
    const values = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "toString": 3}',
    );
    expect(Object.hasOwn(values, '__proto__')).to.equal(true);
    const issues = validateVariables(values, declarations);
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
      ['undeclared', ['__proto__']],
      ['undeclared', ['constructor']],
      ['undeclared', ['toString']],
    ]);
  });

  it('does not mistake an inherited property for a declared id', () => {
    // Without own keys nothing is checked, even though `{}` inherits `constructor` and `toString`.
    expect(validateVariables({}, [])).to.deep.equal([]);
    expect(validateVariables(JSON.parse('{"__proto__": 1}'), []).map((found) => found.code)).to.deep.equal([
      'undeclared',
    ]);
  });

  it('checks values against declarations whose ids are prototype names', () => {
    const named = declare([
      { id: '__proto__', type: 'number', label: 'Proto', default: 1 },
      { id: 'constructor', type: 'string', label: 'Ctor', default: 'x' },
      { id: 'toString', type: 'boolean', label: 'ToString', default: true },
    ]);
    const ok = JSON.parse('{"__proto__": 2, "constructor": "y", "toString": false}');
    expect(validateVariables(ok, named)).to.deep.equal([]);
    const bad = JSON.parse('{"__proto__": "2", "constructor": 3, "toString": "false"}');
    expect(validateVariables(bad, named).map((found) => [found.code, found.path[0]])).to.deep.equal([
      ['type-mismatch', '__proto__'],
      ['type-mismatch', 'constructor'],
      ['type-mismatch', 'toString'],
    ]);
  });

  it('describes values that JSON cannot encode without throwing', () => {
    const issues = validateVariables({ title: Symbol('x'), size: 10n, face: () => 1 }, declarations);
    expect(issues.map((found) => found.code)).to.deep.equal(['type-mismatch', 'type-mismatch', 'type-mismatch']);
  });
});
