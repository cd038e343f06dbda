import { expect } from '@open-wc/testing';
import { parseVariableDeclarations } from '../../src/runtime/declarations.js';

const codes = (input: unknown) => parseVariableDeclarations(input).issues.map((found) => found.code);

describe('parseVariableDeclarations', () => {
  it('accepts every type with its optional fields and keeps unknown extra fields', () => {
    const { declarations, issues } = parseVariableDeclarations(
      JSON.stringify([
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
      ]),
    );
    expect(issues).to.deep.equal([]);
    expect(declarations.map((declaration) => declaration.id)).to.deep.equal([
      'title',
      'size',
      'bg',
      'on',
      'mood',
      'face',
      'logo',
    ]);
    expect(declarations[0]).to.include({ description: 'shown big', maxLength: 20 });
    expect(declarations[3]).to.include({ role: 'toggle' });
  });

  it('treats a missing or blank attribute as no declarations', () => {
    expect(parseVariableDeclarations(null)).to.deep.equal({ declarations: [], issues: [] });
    expect(parseVariableDeclarations('  ')).to.deep.equal({ declarations: [], issues: [] });
  });

  it('says where a list that is not JSON stops: line and column of its text, not a position', () => {
    const text = '[\n  {"id": "a", "type": "string", "label": "A", "default": ""}\n  {"id": "b"}\n]';
    const [found] = parseVariableDeclarations(text).issues;
    expect(found?.code).to.equal('declaration_json_invalid');
    // JavaScriptCore says no position; V8 and SpiderMonkey do, each in its own words.
    const engineSaysWhere = !/AppleWebKit/.test(navigator.userAgent) || /Chrome\//.test(navigator.userAgent);
    if (engineSaysWhere)
      expect(found?.message).to.match(
        /^variable declarations are not valid JSON at line 3, column 3 of data-composition-variables: \S/,
      );
    expect(found?.message).not.to.match(/position \d/);
  });

  const failing: [string, unknown, string][] = [
    ['malformed JSON', '[{"id": "a",', 'declaration_json_invalid'],
    ['neither an array nor an object', '"a"', 'declaration_not_array'],
    [
      'one declaration without its brackets',
      '{"id":"a","type":"string","label":"A","default":""}',
      'declaration_not_array',
    ],
    [
      'an object form with an entry that is not an object',
      '{"a":{"type":"string","default":""},"b":42}',
      'declaration_not_array',
    ],
    ['an entry that is not an object', '[42]', 'declaration_not_object'],
    ['a missing id', [{ type: 'string', label: 'A', default: '' }], 'declaration_field_missing'],
    ['a missing label', [{ id: 'a', type: 'string', default: '' }], 'declaration_field_missing'],
    ['a missing default', [{ id: 'a', type: 'string', label: 'A' }], 'declaration_field_missing'],
    ['a missing type', [{ id: 'a', label: 'A', default: '' }], 'declaration_field_missing'],
    ['an unknown type', [{ id: 'a', type: 'video', label: 'A', default: '' }], 'declaration_type_unknown'],
    ['a string default on a number', [{ id: 'a', type: 'number', label: 'A', default: '3' }], 'default_type_mismatch'],
    ['an infinite-looking default', [{ id: 'a', type: 'number', label: 'A', default: null }], 'default_type_mismatch'],
    ['a short color', [{ id: 'a', type: 'color', label: 'A', default: '#fff' }], 'default_type_mismatch'],
    ['a named color', [{ id: 'a', type: 'color', label: 'A', default: 'red' }], 'default_type_mismatch'],
    ['a string boolean', [{ id: 'a', type: 'boolean', label: 'A', default: 'true' }], 'default_type_mismatch'],
    ['a non-string label', [{ id: 'a', type: 'string', label: 3, default: '' }], 'declaration_field_invalid'],
    ['an empty id', [{ id: '', type: 'string', label: 'A', default: '' }], 'declaration_field_invalid'],
    [
      'a negative maxLength',
      [{ id: 'a', type: 'string', label: 'A', default: '', maxLength: -1 }],
      'declaration_field_invalid',
    ],
    [
      'min above max',
      [{ id: 'a', type: 'number', label: 'A', default: 1, min: 5, max: 2 }],
      'declaration_field_invalid',
    ],
    ['an enum without options', [{ id: 'a', type: 'enum', label: 'A', default: 'x' }], 'enum_options_missing'],
    [
      'malformed enum options',
      [{ id: 'a', type: 'enum', label: 'A', default: 'x', options: ['x'] }],
      'declaration_field_invalid',
    ],
    [
      'an enum default outside its options',
      [{ id: 'a', type: 'enum', label: 'A', default: 'z', options: [{ value: 'x', label: 'X' }] }],
      'enum_default_not_in_options',
    ],
    [
      'a duplicate id',
      [
        { id: 'a', type: 'string', label: 'A', default: '' },
        { id: 'a', type: 'number', label: 'B', default: 1 },
      ],
      'duplicate_id',
    ],
  ];
  for (const [name, input, code] of failing) {
    it(`reports ${code} for ${name}`, () => {
      expect(codes(input)).to.include(code);
    });
  }

  it('keeps the valid declarations next to broken ones', () => {
    const { declarations, issues } = parseVariableDeclarations([
      { id: 'ok', type: 'string', label: 'Ok', default: 'x' },
      { id: 'bad', type: 'number', label: 'Bad', default: 'x' },
    ]);
    expect(declarations.map((declaration) => declaration.id)).to.deep.equal(['ok']);
    expect(issues).to.have.length(1);
    expect(issues[0]).to.include({ code: 'default_type_mismatch', severity: 'error' });
    expect(issues[0]!.path).to.deep.equal([1, 'default']);
  });

  it('warns but keeps a default outside min/max or maxLength', () => {
    const { declarations, issues } = parseVariableDeclarations([
      { id: 'n', type: 'number', label: 'N', default: 11, min: 0, max: 10 },
      { id: 's', type: 'string', label: 'S', default: 'toolong', maxLength: 3 },
    ]);
    expect(declarations).to.have.length(2);
    expect(issues.map((found) => [found.code, found.severity])).to.deep.equal([
      ['default_out_of_range', 'warning'],
      ['default_too_long', 'warning'],
    ]);
  });
});
