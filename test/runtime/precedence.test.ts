import { expect } from '@open-wc/testing';
import { parseVariableDeclarations, type VariableDeclaration } from '../../src/runtime/declarations.js';
import { resolveVariables, type ResolveLayers } from '../../src/runtime/precedence.js';

function declare(list: unknown[]): VariableDeclaration[] {
  const { declarations, issues } = parseVariableDeclarations(list);
  expect(issues, 'test declarations must be valid').to.deep.equal([]);
  return declarations;
}

const declarations = declare([
  { id: 'title', type: 'string', label: 'Title', default: 'Default title', maxLength: 20 },
  { id: 'size', type: 'number', label: 'Size', default: 3, min: 0, max: 10 },
  { id: 'accent', type: 'color', label: 'Accent', default: '#000000' },
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
]);

const DEFAULTS = { title: 'Default title', size: 3, accent: '#000000', mood: 'calm' };

const codes = (layers: ResolveLayers) =>
  resolveVariables(declarations, layers).issues.map((found) => ({
    code: found.code,
    severity: found.severity,
    path: found.path,
  }));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('resolveVariables: precedence', () => {
  it('gives the declared defaults when no layer is supplied', () => {
    expect(resolveVariables(declarations)).to.deep.equal({ values: DEFAULTS, issues: [] });
    expect(resolveVariables(declarations, {})).to.deep.equal({ values: DEFAULTS, issues: [] });
  });

  // Each row: host, overrides, expected title. `undefined` = the layer does not supply "title".
  const layered: [string, string | undefined, string | undefined, string][] = [
    ['default alone', undefined, undefined, 'Default title'],
    ['host over default', 'Host', undefined, 'Host'],
    ['overrides over default', undefined, 'Override', 'Override'],
    ['overrides over host', 'Host', 'Override', 'Override'],
  ];
  for (const [name, host, override, expected] of layered) {
    it(`resolves ${name}`, () => {
      const result = resolveVariables(declarations, {
        host: host === undefined ? {} : { title: host },
        overrides: override === undefined ? {} : { title: override },
      });
      expect(result.values.title).to.equal(expected);
      expect(result.issues).to.deep.equal([]);
    });
  }

  it('lets each key fall to the next lower layer that supplies it', () => {
    const { values, issues } = resolveVariables(declarations, {
      host: { title: 'Host', size: 5 },
      overrides: { size: 7, accent: '#112233' },
    });
    expect(values).to.deep.equal({ title: 'Host', size: 7, accent: '#112233', mood: 'calm' });
    expect(issues).to.deep.equal([]);
  });

  it('skips keys whose value is undefined in a layer', () => {
    const { values } = resolveVariables(declarations, { host: { title: 'Host' }, overrides: { title: undefined } });
    expect(values.title).to.equal('Host');
  });

  it('treats an omitted, undefined or null layer as absent', () => {
    for (const absent of [undefined, null]) {
      expect(resolveVariables(declarations, { host: absent, overrides: absent })).to.deep.equal({
        values: DEFAULTS,
        issues: [],
      });
    }
  });
});

describe('resolveVariables: sub-composition instances (topLevel: false)', () => {
  it('ignores overrides entirely and keeps host values', () => {
    const { values, issues } = resolveVariables(declarations, {
      host: { title: 'Host' },
      overrides: { title: 'Override', size: 9 },
      topLevel: false,
    });
    expect(values).to.deep.equal({ ...DEFAULTS, title: 'Host' });
    expect(issues).to.deep.equal([]);
  });

  it('reports nothing about overrides it never applies', () => {
    expect(codes({ overrides: { size: 'x', extra: 1 }, topLevel: false })).to.deep.equal([]);
    expect(codes({ overrides: 'not an object', topLevel: false })).to.deep.equal([]);
  });

  it('does not pass undeclared override keys through', () => {
    const { values } = resolveVariables(declarations, { overrides: { extra: 1 }, topLevel: false });
    expect(Object.hasOwn(values, 'extra')).to.equal(false);
  });

  it('applies overrides when topLevel is true or omitted', () => {
    expect(resolveVariables(declarations, { overrides: { size: 9 }, topLevel: true }).values.size).to.equal(9);
    expect(resolveVariables(declarations, { overrides: { size: 9 } }).values.size).to.equal(9);
  });
});

describe('resolveVariables: invalid values fall back', () => {
  it('falls back to the default when the host value mismatches its type', () => {
    const { values, issues } = resolveVariables(declarations, { host: { size: '5' } });
    expect(values.size).to.equal(3);
    expect(issues.map((found) => [found.code, found.severity, found.path])).to.deep.equal([
      ['type-mismatch', 'error', ['host', 'size']],
    ]);
  });

  it('falls back to the host value when the override mismatches its type', () => {
    const { values, issues } = resolveVariables(declarations, {
      host: { accent: '#123456' },
      overrides: { accent: 'red' },
    });
    expect(values.accent).to.equal('#123456');
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([['type-mismatch', ['overrides', 'accent']]]);
  });

  it('falls back to the host value when the override is outside the enum', () => {
    const { values, issues } = resolveVariables(declarations, { host: { mood: 'loud' }, overrides: { mood: 'angry' } });
    expect(values.mood).to.equal('loud');
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
      ['enum-out-of-range', ['overrides', 'mood']],
    ]);
  });

  it('falls through two invalid layers to the default', () => {
    const { values, issues } = resolveVariables(declarations, { host: { mood: 3 }, overrides: { mood: 'angry' } });
    expect(values.mood).to.equal('calm');
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
      ['type-mismatch', ['host', 'mood']],
      ['enum-out-of-range', ['overrides', 'mood']],
    ]);
  });

  it('refuses non-finite numbers from any layer', () => {
    const { values } = resolveVariables(declarations, { host: { size: NaN }, overrides: { size: Infinity } });
    expect(values.size).to.equal(3);
  });
});

describe('resolveVariables: warnings keep the value', () => {
  it('clamps an out-of-range number into [min, max] and warns with the layer path', () => {
    const { values, issues } = resolveVariables(declarations, { overrides: { size: 42 } });
    expect(values.size).to.equal(10);
    expect(issues.map((found) => [found.code, found.severity, found.path])).to.deep.equal([
      ['out-of-range', 'warning', ['overrides', 'size']],
    ]);
    expect(issues[0]!.message).to.contain('clamped to 10');
    expect(resolveVariables(declarations, { host: { size: -1 } }).values.size).to.equal(0);
  });

  it('clamps a declared default outside its own range too (lint reports it as default_out_of_range)', () => {
    const loose = [{ id: 'n', type: 'number', label: 'N', default: 50, max: 5 }] as const;
    expect(resolveVariables(loose as never, {}).values.n).to.equal(5);
  });

  it('keeps a too-long string and warns with the layer path', () => {
    const long = 'x'.repeat(21);
    const { values, issues } = resolveVariables(declarations, { host: { title: long } });
    expect(values.title).to.equal(long);
    expect(issues.map((found) => [found.code, found.severity, found.path])).to.deep.equal([
      ['too-long', 'warning', ['host', 'title']],
    ]);
  });
});

describe('resolveVariables: undeclared keys', () => {
  it('passes undeclared keys through and reports them per layer', () => {
    const { values, issues } = resolveVariables(declarations, {
      host: { extra: 'h' },
      overrides: { extra: 'o', other: 2 },
    });
    expect(values).to.deep.equal({ ...DEFAULTS, extra: 'o', other: 2 });
    expect(issues.map((found) => [found.code, found.severity, found.path])).to.deep.equal([
      ['undeclared', 'warning', ['host', 'extra']],
      ['undeclared', 'warning', ['overrides', 'extra']],
      ['undeclared', 'warning', ['overrides', 'other']],
    ]);
  });
});

describe('resolveVariables: non-object layers', () => {
  const notObjects: [string, unknown][] = [
    ['a string', '{"title":"x"}'],
    ['an array', [{ title: 'x' }]],
    ['a number', 7],
    ['a boolean', true],
  ];
  for (const [name, layer] of notObjects) {
    it(`reports values-invalid for ${name} as host`, () => {
      expect(codes({ host: layer })).to.deep.equal([{ code: 'values-invalid', severity: 'error', path: ['host'] }]);
    });
    it(`reports values-invalid for ${name} as overrides`, () => {
      expect(codes({ overrides: layer })).to.deep.equal([
        { code: 'values-invalid', severity: 'error', path: ['overrides'] },
      ]);
    });
  }

  it('still applies the other, valid layer', () => {
    const { values } = resolveVariables(declarations, { host: [], overrides: { size: 8 } });
    expect(values).to.deep.equal({ ...DEFAULTS, size: 8 });
    expect(resolveVariables(declarations, { host: { size: 6 }, overrides: 'x' }).values).to.deep.equal({
      ...DEFAULTS,
      size: 6,
    });
  });
});

describe('resolveVariables: inputs and output', () => {
  it('does not mutate declarations or layers', () => {
    const frozenDeclarations = deepFreeze(structuredClone(declarations));
    const host = deepFreeze({ title: 'Host', size: 'bad', extra: { deep: [1] } });
    const overrides = deepFreeze({ size: 4, mood: 'angry' });
    const before = structuredClone({ frozenDeclarations, host, overrides });
    // Frozen inputs make any write throw; the structural comparison catches anything else.
    resolveVariables(frozenDeclarations, { host, overrides });
    expect({ frozenDeclarations, host, overrides }).to.deep.equal(before);
  });

  it('returns a fresh plain object each time', () => {
    const first = resolveVariables(declarations).values;
    first.title = 'changed';
    expect(resolveVariables(declarations).values.title).to.equal('Default title');
    expect(declarations[0]!.default).to.equal('Default title');
    expect(Object.getPrototypeOf(first)).to.equal(Object.prototype);
  });
});

describe('resolveVariables: hostile keys', () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(typeof {}.toString).to.equal('function');
  });

  it('keeps __proto__, constructor and toString from a layer as own data keys', () => {
    const overrides = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c", "toString": "t"}');
    const { values, issues } = resolveVariables(declarations, { overrides });
    expect(Object.getPrototypeOf(values)).to.equal(Object.prototype);
    expect(Object.hasOwn(values, '__proto__')).to.equal(true);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')!.value).to.deep.equal({ polluted: true });
    expect((values as Record<string, unknown>).polluted).to.equal(undefined);
    expect(values.constructor).to.equal('c');
    expect(values.toString).to.equal('t');
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
      ['undeclared', ['overrides', '__proto__']],
      ['undeclared', ['overrides', 'constructor']],
      ['undeclared', ['overrides', 'toString']],
    ]);
  });

  it('resolves declarations whose ids are prototype names', () => {
    const named = declare([
      { id: '__proto__', type: 'string', label: 'Proto', default: 'p' },
      { id: 'constructor', type: 'number', label: 'Ctor', default: 1 },
      { id: 'toString', type: 'boolean', label: 'ToString', default: false },
    ]);
    const defaults = resolveVariables(named).values;
    expect(Object.getOwnPropertyDescriptor(defaults, '__proto__')!.value).to.equal('p');
    expect(Object.getPrototypeOf(defaults)).to.equal(Object.prototype);
    expect([defaults.constructor, defaults.toString]).to.deep.equal([1, false]);

    const { values, issues } = resolveVariables(named, {
      host: JSON.parse('{"__proto__": "h", "constructor": "not a number"}'),
      overrides: JSON.parse('{"toString": true}'),
    });
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')!.value).to.equal('h');
    expect([values.constructor, values.toString]).to.deep.equal([1, true]);
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([['type-mismatch', ['host', 'constructor']]]);
  });

  it('does not take inherited names for supplied values', () => {
    // `{}` inherits constructor/toString; only own keys are layer values.
    expect(resolveVariables([], { host: {}, overrides: {} })).to.deep.equal({ values: {}, issues: [] });
  });
});
