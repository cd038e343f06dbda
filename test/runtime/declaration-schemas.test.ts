import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { parseVariableDeclarations } from '../../src/runtime/declarations.js';
import { VariableType } from '../../src/runtime/constants.js';
import {
  declarationListSchema,
  declarationSchemas,
  variableDeclarationSchema,
} from '../../src/runtime/declaration-schemas.js';
import * as sdk from '../../src/index.js';
import {
  agreementCases,
  checkDeclarationAgreement,
  checkListAgreement,
  declarationLike,
  declarationListLike,
} from './declaration-agreement.js';

const valid = [
  {
    id: 'title',
    type: 'string',
    label: 'Title',
    default: 'Hi',
    placeholder: 'Say hi',
    maxLength: 20,
    description: 'shown big',
  },
  { id: 'size', type: 'number', label: 'Size', default: 3, min: 0, max: 10, step: 0.5, unit: 'px' },
  { id: 'bg', type: 'color', label: 'Background', default: '#A0b1c2' },
  { id: 'on', type: 'boolean', label: 'On', default: false, role: 'toggle' },
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
];

/** The zod issues' own codes (ours where the schema adds a rule zod has no name for). */
function zodCodes(
  schema: { safeParse(input: unknown): { error?: { issues: { code: string; params?: { code?: string } }[] } } },
  input: unknown,
) {
  return schema.safeParse(input).error?.issues.map((found) => found.params?.code ?? found.code) ?? [];
}

describe('declaration zod schemas', () => {
  it('has one schema per variable type, exported from the package entry', () => {
    expect(Object.keys(declarationSchemas)).to.deep.equal(Object.values(VariableType));
    expect(sdk.declarationSchemas).to.equal(declarationSchemas);
    expect(sdk.declarationListSchema).to.equal(declarationListSchema);
  });

  it('accepts every type with its optional fields and keeps unknown extra fields', () => {
    const result = declarationListSchema.safeParse(valid);
    expect(result.success).to.equal(true);
    expect(result.data).to.deep.equal(valid);
  });

  it('names the rules zod has no code for with our issue codes', () => {
    expect(
      zodCodes(variableDeclarationSchema, {
        id: 'a',
        type: 'enum',
        label: 'A',
        default: 'z',
        options: [{ value: 'x', label: 'X' }],
      }),
    ).to.deep.equal(['enum_default_not_in_options']);
    expect(
      zodCodes(variableDeclarationSchema, { id: 'a', type: 'number', label: 'A', default: 1, min: 5, max: 2 }),
    ).to.deep.equal(['declaration_field_invalid']);
    expect(zodCodes(declarationListSchema, [valid[0], { ...valid[1], id: 'title' }])).to.deep.equal(['duplicate_id']);
  });

  it('leaves an own "__proto__" field out of its copy instead of making it the prototype', () => {
    const input = JSON.parse('{"id":"a","type":"boolean","label":"A","default":true,"__proto__":{"polluted":1}}');
    const result = variableDeclarationSchema.safeParse(input);
    expect(result.success).to.equal(true);
    expect(Object.getPrototypeOf(result.data)).to.equal(Object.prototype);
    expect(Object.keys(result.data!)).to.deep.equal(['id', 'type', 'label', 'default']);
  });

  it('parses under a CSP without unsafe-eval, with no policy violation', async () => {
    const frame = document.createElement('iframe');
    const moduleUrl = new URL('../../src/runtime/declaration-schemas.ts', import.meta.url).href;
    // The listener goes first, so even a violation at import time (e.g. a probe for `new Function`) is seen.
    frame.srcdoc = `<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'nonce-t'">
      <script nonce="t" type="module">
        const violations = [];
        document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective));
        let accepted;
        try {
          const { declarationListSchema } = await import(${JSON.stringify(moduleUrl)});
          accepted = declarationListSchema.safeParse(${JSON.stringify(valid)}).success;
        } catch (error) {
          accepted = String(error);
        }
        setTimeout(() => parent.postMessage({ probe: 'csp', violations, accepted }, '*'), 50);
      </script>`;
    const reply = new Promise<{ probe: string; violations: string[]; accepted: boolean | string }>((resolve) => {
      addEventListener('message', function onMessage(event) {
        // Known by its content: WebKit gives a message posted from the frame's timer another `source` than
        // `frame.contentWindow`.
        if (event.data?.probe !== 'csp') return;
        removeEventListener('message', onMessage);
        resolve(event.data);
      });
    });
    document.body.append(frame);
    try {
      expect(await reply).to.deep.equal({ probe: 'csp', violations: [], accepted: true });
    } finally {
      frame.remove();
    }
  });
});

describe('declaration zod schemas agree with parseVariableDeclarations', () => {
  it('on generated valid and near-valid declarations', () => {
    fc.assert(fc.property(declarationLike, checkDeclarationAgreement), { numRuns: 2000 });
  });

  it('on generated lists, duplicate ids and holes included', () => {
    fc.assert(fc.property(declarationListLike, checkListAgreement), { numRuns: 500 });
  });

  for (const [name, declaration, accepted] of agreementCases) {
    it(`both ${accepted ? 'accept' : 'reject'} ${name}`, () => {
      expect(parseVariableDeclarations([declaration]).declarations.length === 1, 'parser').to.equal(accepted);
      expect(variableDeclarationSchema.safeParse(declaration).success, 'zod').to.equal(accepted);
    });
  }

  // Regressions found by the properties above: the parser skipped array holes that zod reports.
  it('reports a hole in the declaration list instead of dropping it', () => {
    const { declarations, issues } = parseVariableDeclarations([, valid[2]]);
    expect(declarations).to.deep.equal([valid[2]]);
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([['declaration_not_object', [0]]]);
  });

  it('reports enum options with a hole as invalid', () => {
    const { issues } = parseVariableDeclarations([{ ...valid[4], options: [, { value: 'calm', label: 'Calm' }] }]);
    expect(issues.map((found) => [found.code, found.path])).to.deep.equal([
      ['declaration_field_invalid', [0, 'options']],
    ]);
  });
});
