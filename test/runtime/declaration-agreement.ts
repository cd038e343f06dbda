// The lean parser (declarations.ts) and the zod schemas (declaration-schemas.ts) must accept exactly the same
// declarations. Generators, properties and example cases shared by the browser and the Node suites.
import fc from 'fast-check';
import { parseVariableDeclarations } from '../../src/runtime/declarations.js';
import { declarationListSchema, variableDeclarationSchema } from '../../src/runtime/declaration-schemas.js';

type Fields = Record<string, unknown>;

// A small id pool, so lists often repeat an id.
const id = fc.constantFrom('a', 'b', 'title');
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const color = fc
  .tuple(fc.integer({ min: 0, max: 0xffffff }), fc.boolean())
  .map(([rgb, upper]) => `#${rgb.toString(16).padStart(6, '0')}`[upper ? 'toUpperCase' : 'toLowerCase']());
const option = fc.record({ value: fc.string({ maxLength: 3 }), label: fc.string({ maxLength: 3 }) });
const optional = { requiredKeys: ['default'] as 'default'[] };

/** Valid type-specific fields for each type (the enum default is sometimes not one of its options). */
const typeFields: fc.Arbitrary<Fields> = fc.oneof(
  fc.record(
    { type: fc.constant('string'), default: fc.string(), placeholder: fc.string(), maxLength: fc.nat(40) },
    { requiredKeys: ['type', 'default'] },
  ),
  // min and max in either order: min > max is an error, default outside them a warning.
  fc.record(
    {
      type: fc.constant('number'),
      default: finite,
      min: finite,
      max: finite,
      step: fc.double({ min: Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }),
      unit: fc.string(),
    },
    { requiredKeys: ['type', 'default'] },
  ),
  fc.record({ type: fc.constant('color'), default: color }),
  fc.record({ type: fc.constant('boolean'), default: fc.boolean() }),
  fc.array(option, { minLength: 1, maxLength: 3 }).chain((options) =>
    fc.record({
      type: fc.constant('enum'),
      options: fc.constant(options),
      default: fc.oneof(fc.constantFrom(...options.map((entry) => entry.value)), fc.string({ maxLength: 1 })),
    }),
  ),
  fc.record({ type: fc.constant('font'), default: fc.string() }, optional),
  fc.record({ type: fc.constant('image'), default: fc.oneof(fc.webUrl(), fc.string()) }, optional),
);

const valid: fc.Arbitrary<Fields> = fc
  .tuple(id, fc.string({ maxLength: 5 }), typeFields)
  .map(([idValue, label, fields]) => ({ id: idValue, label, ...fields }));

const FIELDS = [
  'id',
  'type',
  'label',
  'default',
  'placeholder',
  'maxLength',
  'min',
  'max',
  'step',
  'unit',
  'options',
  'description',
  'role',
  '__proto__',
  'constructor',
  'toString',
];
const TYPES = [
  'string',
  'number',
  'color',
  'boolean',
  'enum',
  'font',
  'image',
  'video',
  'String',
  '',
  'toString',
  '__proto__',
];
const holeyOptions = [, { value: 'x', label: 'X' }];
/** Values that sit on the edge of some rule. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  -1,
  0.5,
  1e300,
  2 ** 53 + 2,
  Number.MAX_VALUE,
  NaN,
  Infinity,
  -Infinity,
  '',
  'x',
  'string',
  '#fff',
  '#a0b1c2',
  '#A0B1C2\n',
  ' #a0b1c2',
  '#GGGGGG',
  '#a0b1c2ff',
  [],
  {},
  ['x'],
  [null],
  [{ value: 'x', label: 'X' }],
  [{ value: 'x', label: 'X', hint: 1 }],
  [{ value: 1, label: 'X' }],
  [{ value: 'x' }],
  holeyOptions,
  new String('x'),
  [{ value: 'x', label: 'X' }, 'x'],
];
const oddValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_VALUES) },
  fc.jsonValue(),
  finite,
  fc.string({ maxLength: 3 }),
);

type Mutation = { drop: string } | { set: string; to: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ drop: fc.constantFrom(...FIELDS) }),
  fc.record({ set: fc.constantFrom(...FIELDS), to: oddValue }),
  fc.record({ set: fc.constant('type'), to: fc.constantFrom(...TYPES) }),
  fc.record({ set: fc.string({ maxLength: 6 }), to: fc.jsonValue() }),
);

function mutate(base: Fields, mutations: readonly Mutation[]): Fields {
  const entry: Fields = { ...base };
  for (const change of mutations) {
    if ('drop' in change) delete entry[change.drop];
    // defineProperty, so "__proto__" becomes an own field as JSON.parse makes it.
    else
      Object.defineProperty(entry, change.set, {
        value: change.to,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return entry;
}

/** Valid and near-valid declarations (wrong types, missing or extra fields, bad colors, …), and some non-objects. */
export const declarationLike: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: valid },
  {
    weight: 6,
    arbitrary: fc
      .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }))
      .map(([base, changes]) => mutate(base, changes)),
  },
  { weight: 1, arbitrary: fc.oneof(fc.jsonValue(), fc.constantFrom<unknown>(null, [], new Date(0))) },
);

/**
 * The object form of such lists: each entry under a key from the id pool, most without their own `id` (the key is
 * the id then), some with one (which may repeat another entry's), some without a `label`.
 */
export const declarationMapLike: fc.Arbitrary<Record<string, unknown>> = fc
  .array(fc.tuple(id, declarationLike, fc.constantFrom('drop id', 'drop id and label', 'keep')), { maxLength: 4 })
  .map((entries) => {
    const map: Record<string, unknown> = {};
    for (const [key, entry, change] of entries) {
      const copy =
        typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? { ...(entry as Fields) } : entry;
      if (copy !== entry && change !== 'keep') delete (copy as Fields).id;
      if (copy !== entry && change === 'drop id and label') delete (copy as Fields).label;
      Object.defineProperty(map, key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
    return map;
  });

/** Lists of mostly valid declarations with repeated ids, sometimes with holes. */
export const declarationListLike: fc.Arbitrary<unknown[]> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: valid }, declarationLike), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.sparseArray(valid, { maxLength: 4 }) },
);

function describeResult(accepted: boolean, notes: readonly unknown[]): string {
  return `${accepted ? 'accepts' : 'rejects'} ${JSON.stringify(notes)}`;
}

/** Throws when the parser and the zod schema disagree about one declaration, or the parser contradicts itself. */
export function checkDeclarationAgreement(entry: unknown): void {
  const lean = parseVariableDeclarations([entry]);
  const leanAccepts = lean.declarations.length === 1;
  const errors = lean.issues.filter((found) => found.severity === 'error');
  if (leanAccepts === errors.length > 0) throw new Error(`parser ${describeResult(leanAccepts, errors)} with errors`);
  const zod = variableDeclarationSchema.safeParse(entry);
  if (leanAccepts !== zod.success) {
    throw new Error(
      `parser ${describeResult(
        leanAccepts,
        errors.map((found) => found.code),
      )} but zod ${describeResult(zod.success, zod.error?.issues.map((found) => found.path) ?? [])}`,
    );
  }
  // Both keep unknown fields: zod's copy must hold what the parser returned, but for an own "__proto__", which zod
  // leaves out on purpose (assigning it would set the copy's prototype).
  if (zod.success && !sameFields(zod.data, withoutProto(lean.declarations[0])))
    throw new Error('zod did not keep every field the parser kept');
}

/** Throws when the parser keeps a list whole (no errors) but zod refuses it, or the other way round. */
export function checkListAgreement(list: readonly unknown[] | Record<string, unknown>): void {
  const lean = parseVariableDeclarations(list);
  const leanAccepts = !lean.issues.some((found) => found.severity === 'error');
  const count = Array.isArray(list) ? list.length : Object.keys(list).length;
  if (leanAccepts && lean.declarations.length !== count)
    throw new Error(`parser dropped ${count - lean.declarations.length} entries silently`);
  const zod = declarationListSchema.safeParse(list);
  if (leanAccepts !== zod.success) {
    throw new Error(
      `parser ${describeResult(
        leanAccepts,
        lean.issues.map((found) => found.code),
      )} but zod ${describeResult(zod.success, zod.error?.issues.map((found) => found.path) ?? [])}`,
    );
  }
}

function withoutProto(declaration: unknown): Fields {
  const copy: Fields = {};
  for (const [key, value] of Object.entries(declaration as Fields)) if (key !== '__proto__') copy[key] = value;
  return copy;
}

/** Own enumerable fields equal, leaves compared with Object.is, arrays and plain objects compared deeply. */
function sameFields(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // Prototypes may differ: zod copies a null-prototype object into a plain one.
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => Object.hasOwn(b, key) && sameFields((a as Fields)[key], (b as Fields)[key]))
  );
}

/** Decided cases, one per rule where the two could drift apart: [name, declaration, accepted by both]. */
export const agreementCases: readonly (readonly [name: string, declaration: Fields, accepted: boolean])[] = [
  [
    'a maxLength above 2^53 (whole, so allowed)',
    { id: 'a', type: 'string', label: 'A', default: '', maxLength: 2 ** 53 + 2 },
    true,
  ],
  ['a fractional maxLength', { id: 'a', type: 'string', label: 'A', default: '', maxLength: 0.5 }, false],
  ['a maxLength of -0', { id: 'a', type: 'string', label: 'A', default: '', maxLength: -0 }, true],
  ['a negative maxLength', { id: 'a', type: 'string', label: 'A', default: '', maxLength: -1 }, false],
  ['a step of 0', { id: 'a', type: 'number', label: 'A', default: 1, step: 0 }, false],
  ['min above max', { id: 'a', type: 'number', label: 'A', default: 1, min: 5, max: 2 }, false],
  ['min equal to max', { id: 'a', type: 'number', label: 'A', default: 1, min: 2, max: 2 }, true],
  [
    'a default outside min/max (a warning only)',
    { id: 'a', type: 'number', label: 'A', default: 9, min: 0, max: 2 },
    true,
  ],
  [
    'a default longer than maxLength (a warning only)',
    { id: 'a', type: 'string', label: 'A', default: 'abc', maxLength: 1 },
    true,
  ],
  ['an infinite number default', { id: 'a', type: 'number', label: 'A', default: Infinity }, false],
  ['a color with a trailing newline', { id: 'a', type: 'color', label: 'A', default: '#a0b1c2\n' }, false],
  [
    'an enum default outside its options',
    { id: 'a', type: 'enum', label: 'A', default: 'z', options: [{ value: 'x', label: 'X' }] },
    false,
  ],
  ['empty enum options', { id: 'a', type: 'enum', label: 'A', default: 'x', options: [] }, false],
  ['enum options with a hole', { id: 'a', type: 'enum', label: 'A', default: 'x', options: holeyOptions }, false],
  [
    'an optional field set to undefined',
    { id: 'a', type: 'string', label: 'A', default: '', placeholder: undefined },
    true,
  ],
  ['an optional field set to null', { id: 'a', type: 'string', label: 'A', default: '', placeholder: null }, false],
  [
    "another type's field (kept as an extra field)",
    { id: 'a', type: 'color', label: 'A', default: '#000000', step: 0, options: 1 },
    true,
  ],
  ['a type named like an Object.prototype member', { id: 'a', type: 'toString', label: 'A', default: '' }, false],
];
