import { expect } from '@open-wc/testing';
import { isBindableSrcTag, isSafeMediaUrl, safeMediaUrl, sanitizeCssValue } from '../../src/runtime/safety.js';
import { HOSTILE_URLS, vectorLabel, vectorValue, verdictHere } from './hostile-urls.js';

describe('the hostile URL corpus', () => {
  it('holds at least 150 vectors with both verdicts', () => {
    expect(HOSTILE_URLS.length).to.be.at.least(150);
    expect(HOSTILE_URLS.filter((vector) => vector.verdict === 'safe').length).to.be.at.least(50);
    expect(HOSTILE_URLS.filter((vector) => vector.verdict === 'refused').length).to.be.at.least(50);
  });

  it('has a unique name per vector', () => {
    const labels = HOSTILE_URLS.map(vectorLabel);
    expect(new Set(labels).size).to.equal(labels.length);
  });

  // Guards the corpus itself: an encoded vector that decodes to its own text would test nothing extra.
  for (const vector of HOSTILE_URLS.filter((candidate) => candidate.via)) {
    it(`decodes ${vectorLabel(vector)} to a string other than its source text`, () => {
      const value = vectorValue(vector);
      expect(value).to.be.a('string');
      expect(value).not.to.equal(vector.input);
    });
  }
});

describe('safeMediaUrl', () => {
  for (const vector of HOSTILE_URLS) {
    const expectsSafe = verdictHere(vector) === 'safe';
    it(`${expectsSafe ? 'returns unchanged' : 'refuses'} ${vectorLabel(vector)}`, () => {
      const value = vectorValue(vector);
      expect(safeMediaUrl(value)).to.equal(expectsSafe ? value : undefined);
      expect(isSafeMediaUrl(value)).to.equal(expectsSafe);
    });
  }

  it('resolves a relative path against the given base', () => {
    expect(safeMediaUrl('a.png', 'http://cdn.example.invalid/dir/')).to.equal('a.png');
    expect(safeMediaUrl('a.png', new URL('https://cdn.example.invalid/'))).to.equal('a.png');
  });

  it('refuses a relative path when the base makes it a file: URL', () => {
    expect(safeMediaUrl('a.png', 'file:///srv/composition/')).to.equal(undefined);
  });

  it('refuses a relative path against a base that is not a URL', () => {
    expect(safeMediaUrl('a.png', 'not a url')).to.equal(undefined);
  });

  it('refuses a relative path against a data: base (it cannot be a base)', () => {
    expect(safeMediaUrl('a.png', 'data:image/png,x')).to.equal(undefined);
  });

  it('keeps an absolute safe URL safe whatever the base', () => {
    expect(safeMediaUrl('https://cdn.example.invalid/x.png', 'file:///srv/')).to.equal(
      'https://cdn.example.invalid/x.png',
    );
  });

  it('keeps an absolute unsafe URL refused whatever the base', () => {
    expect(safeMediaUrl('javascript:alert(1)', 'https://cdn.example.invalid/')).to.equal(undefined);
  });
});

describe('isBindableSrcTag', () => {
  const allowed = ['img', 'IMG', 'Img', 'video', 'VIDEO', 'audio', 'Audio', 'source', 'SOURCE'];
  for (const tag of allowed) {
    it(`allows <${tag}>`, () => {
      expect(isBindableSrcTag(tag)).to.equal(true);
    });
  }

  const refusedTags = [
    'iframe',
    'IFRAME',
    'script',
    'SCRIPT',
    'object',
    'embed',
    'frame',
    'frameset',
    'link',
    'a',
    'form',
    'svg',
    'use',
    'image',
    'input',
    'base',
    'meta',
    'style',
    'portal',
    'fencedframe',
    'math',
    'template',
    'picture',
    'track',
    'button',
    'area',
    'applet',
    'x-img',
    'img-x',
    'imgs',
    'svg:image',
    ' img',
    'img ',
    '',
    '\u017Fource',
    '\u0130mg',
  ];
  for (const tag of refusedTags) {
    it(`refuses ${JSON.stringify(tag)}`, () => {
      expect(isBindableSrcTag(tag)).to.equal(false);
    });
  }

  it('agrees with the localName the DOM gives each allowed element', () => {
    for (const tag of ['img', 'video', 'audio', 'source']) {
      expect(isBindableSrcTag(document.createElement(tag.toUpperCase()).localName)).to.equal(true);
    }
  });
});

describe('sanitizeCssValue', () => {
  const cases: [string, string, string][] = [
    ['a plain color', '#ff0000', '#ff0000'],
    ['a font family with spaces and quotes', '"Inter Tight", sans-serif', '"Inter Tight", sans-serif'],
    ['the empty string', '', ''],
    ['a declaration break-out', 'red;}body{background:red', 'redbodybackground:red'],
    ['markup closing a style element', '</style><script>alert(1)</script>', '/stylescriptalert(1)/script'],
    ['a CSS escape of a semicolon', '\\3b color:red', '3b color:red'],
    ['newlines, CR and form feed', 'a\nb\r\nc\fd', 'abcd'],
    ['only refused characters', ';{}<>\\\n', ''],
    ['a url() with javascript: (no refused character)', 'url(javascript:alert(1))', 'url(javascript:alert(1))'],
  ];
  for (const [name, input, output] of cases) {
    it(`sanitizes ${name}`, () => {
      expect(sanitizeCssValue(input)).to.equal(output);
    });
  }
});
