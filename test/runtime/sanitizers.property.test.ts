import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { isSafeMediaUrl, safeMediaUrl, sanitizeCssValue } from '../../src/runtime/safety.js';

const RUNS = { numRuns: 400 };
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'blob:', 'data:']);
const CHECK_BASE = 'https://x.invalid/';
const CSS_REFUSED = [';', '{', '}', '<', '>', '\\', '\n', '\r', '\f'];

// Pieces that make URL checks and CSS injections interesting; fast-check 4 has no fullUnicodeString, so
// lone surrogates come in as fragments and full code points from `unit: 'binary'`.
const FRAGMENTS = [
  'javascript:',
  'JaVaScRiPt:',
  'vbscript:',
  'data:text/html,',
  'data:image/png,',
  'data:image/svg+xml,',
  'data:',
  ';base64,',
  'image/',
  'http:',
  'https://',
  '//',
  'blob:',
  'file:',
  ';',
  '{',
  '}',
  '<',
  '>',
  '\\',
  '\n',
  '\r',
  '\t',
  '\f',
  '\0',
  '\x01',
  '\x1f',
  ' ',
  '\u00a0',
  '\ufeff',
  '\ud800',
  '%',
  '%0A',
  '#',
  '?',
  '/',
  ':',
  ',',
  '&#x09;',
  'a.png',
  '*/',
  '/*',
  'url(',
  ')',
  '!important',
  'x',
];
const fragment = fc.constantFrom(...FRAGMENTS);
const joined = (parts: fc.Arbitrary<string>) => fc.array(parts, { maxLength: 16 }).map((items) => items.join(''));

const anyString = fc.oneof(
  fc.string({ unit: 'binary', size: 'medium' }),
  fc.string({ unit: 'binary-ascii', size: 'medium' }),
  fc.string({ unit: 'grapheme', size: 'medium' }),
  joined(fragment),
  joined(fc.oneof(fragment, fc.string({ unit: 'binary', maxLength: 3 }))),
);

// Whatever the URL parser strips or removes, placed where it is stripped or removed.
const stripped = fc.string({
  unit: fc.constantFrom(...Array.from({ length: 33 }, (_, code) => String.fromCharCode(code))),
  maxLength: 6,
});
const removed = fc.string({ unit: fc.constantFrom('\t', '\n', '\r'), maxLength: 2 });
const disguised = (scheme: string) =>
  fc
    .tuple(
      stripped,
      fc.array(removed, { minLength: scheme.length, maxLength: scheme.length }),
      fc.mixedCase(fc.constant(scheme)),
    )
    .map(([lead, gaps, cased]) => lead + [...cased].map((char, index) => char + gaps[index]).join(''));

describe('safeMediaUrl (properties)', () => {
  it('never throws and returns either undefined or exactly its input', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const result = safeMediaUrl(value);
        return result === undefined || result === value;
      }),
      RUNS,
    );
  });

  it('never throws on values of any type, and refuses every non-string', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withBoxedValues: true, withMap: true, withSet: true }), (value) => {
        const result = safeMediaUrl(value);
        return typeof value === 'string' ? result === undefined || result === value : result === undefined;
      }),
      RUNS,
    );
  });

  it('only returns values that parse to an allowed protocol', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        if (safeMediaUrl(value) === undefined) return true;
        return ALLOWED_PROTOCOLS.has(new URL(value, CHECK_BASE).protocol);
      }),
      RUNS,
    );
  });

  it('only returns data: URLs of an image type', () => {
    fc.assert(
      fc.property(joined(fragment), (value) => {
        if (safeMediaUrl(value) === undefined || new URL(value, CHECK_BASE).protocol !== 'data:') return true;
        return /^data:[\t\n\f\r ]*image\//i.test(new URL(value, CHECK_BASE).href);
      }),
      RUNS,
    );
  });

  for (const scheme of ['javascript:', 'vbscript:', 'file:', 'data:text/html,']) {
    it(`refuses ${scheme} in any case with stripped and removed characters around it`, () => {
      fc.assert(
        fc.property(disguised(scheme), anyString, (prefix, rest) => safeMediaUrl(prefix + rest) === undefined),
        RUNS,
      );
    });
  }

  it('keeps a safe value safe once the parser has normalised it', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        if (safeMediaUrl(value) === undefined) return true;
        return isSafeMediaUrl(new URL(value, CHECK_BASE).href);
      }),
      RUNS,
    );
  });
});

describe('isSafeMediaUrl (properties)', () => {
  it('gives the same answer on every run and agrees with safeMediaUrl', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const first = isSafeMediaUrl(value);
        return isSafeMediaUrl(value) === first && first === (safeMediaUrl(value) !== undefined);
      }),
      RUNS,
    );
  });
});

describe('sanitizeCssValue (properties)', () => {
  it('never throws and is idempotent', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const once = sanitizeCssValue(value);
        return sanitizeCssValue(once) === once;
      }),
      RUNS,
    );
  });

  it('never outputs ; { } < > \\ or a line break', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const output = sanitizeCssValue(value);
        return CSS_REFUSED.every((char) => !output.includes(char));
      }),
      RUNS,
    );
  });

  it('removes only refused characters, keeping the rest in order', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const output = sanitizeCssValue(value);
        const kept = [...value].filter((char) => !CSS_REFUSED.includes(char)).join('');
        return output === kept;
      }),
      RUNS,
    );
  });

  // Written into declaration text (as a serialised style would be), the value must not start a second declaration.
  const declaredProperties = (value: string): string[] => {
    const element = document.createElement('div');
    element.setAttribute('style', `--fx-probe: ${value}`);
    return [...element.style];
  };

  it('cannot declare any property but the custom property it is written into', () => {
    fc.assert(
      fc.property(anyString, (value) =>
        declaredProperties(sanitizeCssValue(value)).every((name) => name === '--fx-probe'),
      ),
      RUNS,
    );
  });

  it('would notice a break-out: unsanitised text does declare another property', () => {
    expect(declaredProperties('x;color:red')).to.include('color');
  });
});
