/**
 * zod schemas of `data-composition-variables` declarations, for tools (editors, the service, users' own code) and
 * for the JSON Schema in `schemas/`. The element and the in-frame runtime never import this module: they use the
 * lean rule table in declarations.ts, which must fit their size budget. Both must accept exactly the same
 * declarations; test/runtime/declaration-schemas*.test.ts checks that with generated inputs.
 */
import * as z from 'zod/mini';
import { COLOR_PATTERN, VariableType } from './constants.js';
import { DeclarationIssueCode } from './issues.js';
import { declarationEntries } from './declaration-map.js';

/**
 * Builds a schema with zod's JIT off: a strict CSP refuses `new Function`, and reports even zod's probe for it.
 * (zod/mini objects do not JIT today; this keeps it so.) Marked free of side effects so that bundlers drop every
 * schema nobody uses, config call included: the SDK's ES build is one file, and most users never touch these.
 */
/* @__NO_SIDE_EFFECTS__ */
function defineSchema<Schema>(build: () => Schema): Schema {
  z.config({ jitless: true });
  return build();
}

/** Whole and ≥ 0 as `Number.isInteger` says, like declarations.ts: `z.int()` would also cap it at 2^53 − 1. */
const wholeNumber = defineSchema(() =>
  z.number().check(z.refine(Number.isInteger, 'expected a whole number'), z.nonnegative()),
);
const id = defineSchema(() => z.string().check(z.minLength(1)));

export const stringDeclarationSchema = defineSchema(() =>
  z.looseObject({
    id,
    type: z.literal(VariableType.string),
    label: z.string(),
    default: z.string(),
    placeholder: z.optional(z.string()),
    maxLength: z.optional(wholeNumber),
  }),
);

export const numberDeclarationSchema = defineSchema(() =>
  z
    .looseObject({
      id,
      type: z.literal(VariableType.number),
      label: z.string(),
      default: z.number(),
      min: z.optional(z.number()),
      max: z.optional(z.number()),
      step: z.optional(z.number().check(z.positive())),
      unit: z.optional(z.string()),
    })
    .check(
      z.refine(
        (declaration) =>
          declaration.min === undefined || declaration.max === undefined || declaration.min <= declaration.max,
        {
          message: '"min" must not be greater than "max"',
          path: ['min'],
          params: { code: DeclarationIssueCode.fieldInvalid },
        },
      ),
    ),
);

export const colorDeclarationSchema = defineSchema(() =>
  z.looseObject({
    id,
    type: z.literal(VariableType.color),
    label: z.string(),
    default: z.string().check(z.regex(COLOR_PATTERN)),
  }),
);

export const booleanDeclarationSchema = defineSchema(() =>
  z.looseObject({
    id,
    type: z.literal(VariableType.boolean),
    label: z.string(),
    default: z.boolean(),
  }),
);

export const enumOptionSchema = defineSchema(() => z.looseObject({ value: z.string(), label: z.string() }));

export const enumDeclarationSchema = defineSchema(() =>
  z
    .looseObject({
      id,
      type: z.literal(VariableType.enum),
      label: z.string(),
      default: z.string(),
      options: z.array(enumOptionSchema).check(z.minLength(1)),
    })
    .check(
      z.refine((declaration) => declaration.options.some((option) => option.value === declaration.default), {
        message: '"default" must be one of the option values',
        path: ['default'],
        params: { code: DeclarationIssueCode.enumDefaultNotInOptions },
      }),
    ),
);

/** Default is a font family name. */
export const fontDeclarationSchema = defineSchema(() =>
  z.looseObject({
    id,
    type: z.literal(VariableType.font),
    label: z.string(),
    default: z.string(),
  }),
);

/** Default is an image URL (an unsafe one is a lint finding, not a declaration error). */
export const imageDeclarationSchema = defineSchema(() =>
  z.looseObject({
    id,
    type: z.literal(VariableType.image),
    label: z.string(),
    default: z.string(),
  }),
);

/** One schema per variable type. */
export const declarationSchemas = {
  string: stringDeclarationSchema,
  number: numberDeclarationSchema,
  color: colorDeclarationSchema,
  boolean: booleanDeclarationSchema,
  enum: enumDeclarationSchema,
  font: fontDeclarationSchema,
  image: imageDeclarationSchema,
} as const satisfies Record<VariableType, z.ZodMiniType>;

/** Any one declaration, chosen by its `type`. */
export const variableDeclarationSchema = defineSchema(() =>
  z.discriminatedUnion('type', [
    stringDeclarationSchema,
    numberDeclarationSchema,
    colorDeclarationSchema,
    booleanDeclarationSchema,
    enumDeclarationSchema,
    fontDeclarationSchema,
    imageDeclarationSchema,
  ]),
);

const duplicateIssue = (id: string, path: PropertyKey[]) => ({
  code: 'custom' as const,
  message: `variable id "${id}" is declared more than once`,
  path,
  input: id,
  params: { code: DeclarationIssueCode.duplicateId },
});

/** The array form: every declaration valid and every `id` unique. */
export const declarationArraySchema = defineSchema(() =>
  z.array(variableDeclarationSchema).check(
    z.superRefine((list, context) => {
      const seen = new Set<string>();
      list.forEach((declaration, index) => {
        if (seen.has(declaration.id)) context.addIssue(duplicateIssue(declaration.id, [index, 'id']));
        seen.add(declaration.id);
      });
    }),
  ),
);

/**
 * The object form `{ "<id>": { type, default, label? … } }` (see declaration-map.ts): each entry, with its key as
 * `id` and `label` where it names none, valid as a declaration, and every `id` unique. Validated as it is;
 * `parseVariableDeclarations` turns it into the array form.
 */
export const declarationMapSchema = defineSchema(() =>
  z.record(z.string(), z.looseObject({})).check(
    z.superRefine((map, context) => {
      const seen = new Set<string>();
      for (const [key, entry] of declarationEntries(map)) {
        const result = variableDeclarationSchema.safeParse(entry);
        if (!result.success) {
          for (const found of result.error.issues)
            context.addIssue({ ...found, code: 'custom', path: [key, ...found.path] });
          continue;
        }
        if (seen.has(result.data.id)) context.addIssue(duplicateIssue(result.data.id, [key, 'id']));
        seen.add(result.data.id);
      }
    }),
  ),
);

/**
 * The whole `data-composition-variables` value: the array form, or the object form of declarations by id.
 *
 * @example
 * const result = declarationListSchema.safeParse(JSON.parse(root.getAttribute('data-composition-variables')));
 */
export const declarationListSchema = defineSchema(() => z.union([declarationArraySchema, declarationMapSchema]));

/** What the JSON Schema cannot say; written into its `description` so editors' users know. */
const NOT_IN_JSON_SCHEMA =
  'ids are unique, a number\'s "min" is not greater than its "max", and an enum\'s "default" is one of its option values';

/**
 * The JSON Schema (draft 2020-12) of `data-composition-variables`, generated from the zod schemas above.
 * scripts/declarations-schema.mjs writes it to schemas/composition-variables.schema.json.
 */
export function declarationsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(declarationListSchema, {
    target: 'draft-2020-12',
    // JSON Schema's "integer" has no 2^53 cap either: say it instead of the zod refinement it cannot express.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === wholeNumber) jsonSchema.type = 'integer';
    },
  });
  const { $schema, ...rest } = schema;
  return {
    $schema,
    title: 'fx composition variables',
    description:
      'Editor validation of the JSON in the "data-composition-variables" attribute of an fx composition: an array ' +
      'of typed variable declarations (or an object of them by id, whose entries only fx checks). Generated from the zod schemas in src/runtime/declaration-schemas.ts by ' +
      `scripts/declarations-schema.mjs; do not edit. Also checked by fx (runtime, lint, zod schemas), not expressible here: ${NOT_IN_JSON_SCHEMA}.`,
    ...rest,
  };
}
