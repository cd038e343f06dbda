import { expect } from '@open-wc/testing';
import { applyBindings } from '../../src/runtime/bindings.js';
import { Attr } from '../../src/runtime/constants.js';
import { BindingIssueCode } from '../../src/runtime/issues.js';
import { safeMediaUrl } from '../../src/runtime/safety.js';
import { HOSTILE_URLS, PWNED_MESSAGE, vectorLabel, vectorValue, verdictHere } from './hostile-urls.js';

const SETTLE_MS = 500;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

// Everything a payload could do to announce itself, and every error nobody caught.
const pwned: string[] = [];
const uncaught: string[] = [];
const onMessage = (event: MessageEvent) => {
  if (event.data === PWNED_MESSAGE) pwned.push(`message from ${event.origin}`);
};
const onError = (event: Event) => {
  if (event instanceof ErrorEvent) uncaught.push(event.message);
};
const onRejection = (event: PromiseRejectionEvent) => uncaught.push(String(event.reason));

before(() => {
  Object.defineProperty(window, '__pwned', {
    configurable: true,
    get: () => undefined,
    set: (value: unknown) => pwned.push(`window.__pwned = ${String(value)}`),
  });
  window.addEventListener('message', onMessage);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
});

after(() => {
  window.removeEventListener('message', onMessage);
  window.removeEventListener('error', onError);
  window.removeEventListener('unhandledrejection', onRejection);
  delete (window as { __pwned?: unknown }).__pwned;
});

const FALLBACK = {
  img: 'fallback.png',
  video: 'fallback.mp4',
  audio: 'fallback.mp3',
  source: 'fallback.webm',
} as const;
type MediaTag = keyof typeof FALLBACK;
const MEDIA_TAGS = Object.keys(FALLBACK) as MediaTag[];
const REFUSED_TAGS = ['iframe', 'object', 'embed', 'image', 'script', 'frame'] as const;

interface Composition {
  readonly root: HTMLElement;
  readonly media: Record<MediaTag, Element>;
  readonly refusedElements: Element[];
}

function mountComposition(): Composition {
  const root = document.createElement('div');
  root.setAttribute(Attr.compositionId, 'main');
  root.innerHTML = `
    <img ${Attr.varSrc}="pic" src="${FALLBACK.img}" alt="">
    <video ${Attr.varSrc}="pic" src="${FALLBACK.video}" muted></video>
    <audio ${Attr.varSrc}="pic" src="${FALLBACK.audio}"></audio>
    <video muted><source ${Attr.varSrc}="pic" src="${FALLBACK.source}"></video>
    <iframe ${Attr.varSrc}="pic" src="about:blank" title="refused"></iframe>
    <object ${Attr.varSrc}="pic"></object>
    <embed ${Attr.varSrc}="pic">
    <svg><image ${Attr.varSrc}="pic" href="${FALLBACK.img}"/></svg>`;
  // Created, not parsed: a parsed script is marked as already started and would never run whatever its src.
  for (const tag of ['script', 'frame']) {
    const element = document.createElement(tag);
    element.setAttribute(Attr.varSrc, 'pic');
    root.append(element);
  }
  document.body.append(root);
  const first = (selector: string) => {
    const found = root.querySelector(`${selector}[${Attr.varSrc}]`);
    if (!found) throw new Error(`fixture has no ${selector}`);
    return found;
  };
  return {
    root,
    media: { img: first('img'), video: first('video'), audio: first('audio'), source: first('source') },
    refusedElements: REFUSED_TAGS.map(first),
  };
}

/** The `data-var-src` issue codes of one `applyBindings` call, sorted (CSS warnings are another concern). */
function srcIssueCodes(composition: Composition, value: unknown): string[] {
  return applyBindings(composition.root, { pic: value })
    .filter((found) => found.path[0] === Attr.varSrc)
    .map((found) => found.code)
    .sort();
}

function expectedSrcIssueCodes(refusedUrl: boolean): string[] {
  const codes: string[] = REFUSED_TAGS.map(() => BindingIssueCode.tagNotAllowed);
  if (refusedUrl) codes.push(...MEDIA_TAGS.map(() => BindingIssueCode.urlRefused));
  return codes.sort();
}

// Without these, a quiet trap would prove nothing: each shows a payload is caught when it does run.
describe('the script trap', () => {
  let frame: HTMLIFrameElement;
  beforeEach(() => {
    pwned.length = 0;
    frame = document.createElement('iframe');
    frame.title = 'trap check';
    document.body.append(frame);
  });
  afterEach(() => {
    frame.remove();
    pwned.length = 0;
  });

  it('catches a javascript: URL run in a frame', async () => {
    frame.src = 'javascript:parent.__pwned=1';
    await settle();
    expect(pwned).to.deep.equal(['window.__pwned = 1']);
  });

  it('catches the SVG corpus payload when a frame loads it', async () => {
    const svg = HOSTILE_URLS.find((vector) => vector.name.startsWith('data:image/svg+xml with an onload script'));
    frame.src = String(svg?.input);
    await settle();
    expect(pwned).to.have.length(1);
  });

  it('catches a data:text/html corpus payload when a frame loads it', async () => {
    const html = HOSTILE_URLS.find((vector) => vector.name === 'data:text/html with script');
    frame.src = String(html?.input);
    await settle();
    expect(pwned).to.have.length(1);
  });
});

describe('data-var-src in a live document, with every hostile vector', () => {
  let composition: Composition;
  before(() => {
    pwned.length = 0;
    uncaught.length = 0;
    composition = mountComposition();
  });
  after(() => composition.root.remove());

  // One composition for the whole corpus, so a refused value must also undo the safe value before it.
  for (const vector of HOSTILE_URLS) {
    const value = vectorValue(vector);
    const blank = value === null || value === '';
    if (verdictHere(vector) === 'safe') {
      it(`sets src to ${vectorLabel(vector)} exactly`, () => {
        expect(srcIssueCodes(composition, value)).to.deep.equal(expectedSrcIssueCodes(false));
        for (const tag of MEDIA_TAGS) {
          const src = composition.media[tag].getAttribute('src');
          expect(src, tag).to.equal(value);
          expect(src, tag).to.equal(safeMediaUrl(value));
        }
      });
    } else {
      it(`keeps the fallback src for ${vectorLabel(vector)}${blank ? ' (no value: no issue)' : ''}`, () => {
        expect(srcIssueCodes(composition, value)).to.deep.equal(expectedSrcIssueCodes(!blank));
        for (const tag of MEDIA_TAGS) expect(composition.media[tag].getAttribute('src'), tag).to.equal(FALLBACK[tag]);
      });
    }
  }

  it('treats an image value { url } like its bare URL, for every vector', () => {
    for (const vector of HOSTILE_URLS) {
      const url = vectorValue(vector);
      const refusedUrl = verdictHere(vector) === 'refused';
      expect(srcIssueCodes(composition, { url }), vectorLabel(vector)).to.deep.equal(expectedSrcIssueCodes(refusedUrl));
      const expected = refusedUrl ? FALLBACK.img : url;
      expect(composition.media.img.getAttribute('src'), vectorLabel(vector)).to.equal(expected);
    }
  });

  it('never touched the src of a tag that is not allowed', () => {
    const [iframe, ...others] = composition.refusedElements;
    expect(iframe?.getAttribute('src')).to.equal('about:blank');
    for (const element of others) expect(element.hasAttribute('src'), element.localName).to.equal(false);
    expect(composition.root.querySelector('image')?.getAttribute('href')).to.equal(FALLBACK.img);
  });

  it('ran no script and threw nothing while the corpus was applied', async () => {
    await settle();
    expect(pwned).to.deep.equal([]);
    expect(uncaught).to.deep.equal([]);
  });
});

describe('data-var-src image values', () => {
  let composition: Composition;
  beforeEach(() => {
    composition = mountComposition();
  });
  afterEach(() => composition.root.remove());

  it('sets src from { url }', () => {
    expect(srcIssueCodes(composition, { url: 'https://cdn.example.invalid/x.png' })).to.deep.equal(
      expectedSrcIssueCodes(false),
    );
    expect(composition.media.img.getAttribute('src')).to.equal('https://cdn.example.invalid/x.png');
  });

  it('refuses { url } holding javascript:', () => {
    expect(srcIssueCodes(composition, { url: 'javascript:parent.__pwned=1' })).to.deep.equal(
      expectedSrcIssueCodes(true),
    );
    expect(composition.media.img.getAttribute('src')).to.equal(FALLBACK.img);
  });

  it('refuses { url } holding a number', () => {
    expect(srcIssueCodes(composition, { url: 42 })).to.deep.equal(expectedSrcIssueCodes(true));
    expect(composition.media.img.getAttribute('src')).to.equal(FALLBACK.img);
  });

  it('restores the fallback when a refused value follows a safe one', () => {
    srcIssueCodes(composition, 'https://cdn.example.invalid/x.png');
    srcIssueCodes(composition, 'javascript:alert(1)');
    for (const tag of MEDIA_TAGS) expect(composition.media[tag].getAttribute('src'), tag).to.equal(FALLBACK[tag]);
  });

  it('removes src when there was no authored fallback and the value is refused', () => {
    const img = document.createElement('img');
    img.setAttribute(Attr.varSrc, 'pic');
    img.alt = '';
    composition.root.append(img);
    applyBindings(composition.root, { pic: 'a.png' });
    expect(img.getAttribute('src')).to.equal('a.png');
    applyBindings(composition.root, { pic: 'data:text/html,x' });
    expect(img.hasAttribute('src')).to.equal(false);
  });
});
