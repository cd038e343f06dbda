import { expect } from '@open-wc/testing';
import { parseStart, resolveTiming, TimingIssueCode, type TimedNode } from '../../src/runtime/timing.js';
import { compositionHtml, mount, probe, whenReady } from '../elements/helpers.js';

const ROOT: TimedNode = { key: 'root' };
const node = (key: string, rest: Partial<TimedNode> = {}): TimedNode => ({ key, id: key, parent: 'root', ...rest });

function windows(nodes: TimedNode[], duration = 10) {
  const { windows: found, issues } = resolveTiming([ROOT, ...nodes], duration);
  return {
    at: (key: string) => found.get(key),
    issues: issues.map((found) => ({ code: found.code, path: found.path })),
  };
}

describe('parseStart', () => {
  const valid: [string, ReturnType<typeof parseStart>][] = [
    ['2', { kind: 'offset', seconds: 2 }],
    [' 1.25 ', { kind: 'offset', seconds: 1.25 }],
    ['.5', { kind: 'offset', seconds: 0.5 }],
    ['1e1', { kind: 'offset', seconds: 10 }],
    ['-1', { kind: 'offset', seconds: -1 }],
    ['intro', { kind: 'after', id: 'intro', offset: 0 }],
    ['intro + 2', { kind: 'after', id: 'intro', offset: 2 }],
    ['intro+2', { kind: 'after', id: 'intro', offset: 2 }],
    ['intro - 0.5', { kind: 'after', id: 'intro', offset: -0.5 }],
    ['scene-1.part_2 + .25', { kind: 'after', id: 'scene-1.part_2', offset: 0.25 }],
    // A word is an id, even one that reads like a number to JavaScript.
    ['Infinity', { kind: 'after', id: 'Infinity', offset: 0 }],
  ];
  for (const [text, expected] of valid) {
    it(`reads ${JSON.stringify(text)}`, () => expect(parseStart(text)).to.deep.equal(expected));
  }

  const malformed = [
    '',
    '1s',
    '2 +',
    'intro + ',
    'intro * 2',
    'intro + x',
    '+ 2',
    '1 + 2',
    'intro - -1',
    '1e999',
    '9intro',
    'a b',
    'intro + 1e3',
  ];
  for (const text of malformed) {
    it(`refuses ${JSON.stringify(text)}`, () => expect(parseStart(text)).to.equal(undefined));
  }
});

describe('resolveTiming', () => {
  it('gives the root [0, duration)', () => {
    expect(windows([]).at('root')).to.deep.equal({ start: 0, end: 10 });
  });

  it('starts at seconds relative to the parent and lasts its duration', () => {
    const { at, issues } = windows([node('a', { start: '1', duration: 2 })]);
    expect(at('a')).to.deep.equal({ start: 1, end: 3 });
    expect(issues).to.deep.equal([]);
  });

  it('starts at the parent start without data-start and lasts until the parent ends without a duration', () => {
    const { at } = windows([node('p', { start: '2', duration: 5 }), node('c', { parent: 'p' })]);
    expect(at('c')).to.deep.equal({ start: 2, end: 7 });
  });

  it('offsets a numeric start from the parent start', () => {
    const { at } = windows([
      node('p', { start: '3', duration: 5 }),
      node('c', { parent: 'p', start: '1.5', duration: 1 }),
    ]);
    expect(at('c')).to.deep.equal({ start: 4.5, end: 5.5 });
  });

  it('follows a clip named by id', () => {
    const { at, issues } = windows([
      node('intro', { start: '1', duration: 2 }),
      node('next', { start: 'intro', duration: 1 }),
    ]);
    expect(at('next')).to.deep.equal({ start: 3, end: 4 });
    expect(issues).to.deep.equal([]);
  });

  it('follows a clip with a gap ("id + 2") and with an overlap ("id - 0.5")', () => {
    const { at } = windows([
      node('intro', { start: '0', duration: 2 }),
      node('gap', { start: 'intro + 2', duration: 1 }),
      node('overlap', { start: 'intro - 0.5', duration: 1 }),
    ]);
    expect(at('gap')).to.deep.equal({ start: 4, end: 5 });
    expect(at('overlap')).to.deep.equal({ start: 1.5, end: 2.5 });
  });

  it('resolves a reference declared later in document order and chains of references', () => {
    const { at } = windows([
      node('c', { start: 'b', duration: 1 }),
      node('b', { start: 'a + 1', duration: 1 }),
      node('a', { start: '0.5', duration: 1 }),
    ]);
    expect(at('a')).to.deep.equal({ start: 0.5, end: 1.5 });
    expect(at('b')).to.deep.equal({ start: 2.5, end: 3.5 });
    expect(at('c')).to.deep.equal({ start: 3.5, end: 4.5 });
  });

  it('follows a clip in another parent, by its absolute end', () => {
    const { at } = windows([
      node('p', { start: '2', duration: 6 }),
      node('inner', { parent: 'p', start: '1', duration: 1 }),
      node('after', { start: 'inner', duration: 1 }),
    ]);
    expect(at('inner')).to.deep.equal({ start: 3, end: 4 });
    expect(at('after')).to.deep.equal({ start: 4, end: 5 });
  });

  it('clamps to the parent: a start past the end, a negative start, a duration running past the end', () => {
    const { at } = windows([
      node('p', { start: '2', duration: 3 }),
      node('late', { parent: 'p', start: '10', duration: 1 }),
      node('early', { parent: 'p', start: '-1', duration: 1 }),
      node('long', { parent: 'p', start: '1', duration: 100 }),
      node('root-long', { start: '8', duration: 5 }),
      node('negative', { start: '1', duration: -3 }),
    ]);
    expect(at('late')).to.deep.equal({ start: 5, end: 5 });
    expect(at('early')).to.deep.equal({ start: 2, end: 3 });
    expect(at('long')).to.deep.equal({ start: 3, end: 5 });
    expect(at('root-long')).to.deep.equal({ start: 8, end: 10 });
    expect(at('negative')).to.deep.equal({ start: 1, end: 1 });
  });

  it('an unknown reference: "start_reference_unknown", falls back to the parent start', () => {
    const { at, issues } = windows([
      node('p', { start: '2', duration: 3 }),
      node('c', { parent: 'p', start: 'nobody + 1', duration: 1 }),
    ]);
    expect(issues).to.deep.equal([{ code: TimingIssueCode.startReferenceUnknown, path: ['c', 'data-start'] }]);
    expect(at('c')).to.deep.equal({ start: 2, end: 3 });
  });

  it('a clip naming itself: "start_reference_unknown"', () => {
    const { issues } = windows([node('self', { start: 'self', duration: 1 })]);
    expect(issues.map((found) => found.code)).to.deep.equal(['start_reference_unknown']);
  });

  it('a cycle: "start_cycle", both still get a window', () => {
    const { at, issues } = windows([node('a', { start: 'b', duration: 1 }), node('b', { start: 'a', duration: 1 })]);
    expect(issues).to.deep.equal([{ code: 'start_cycle', path: ['b', 'data-start'] }]);
    expect(at('b')).to.deep.equal({ start: 0, end: 1 });
    expect(at('a')).to.deep.equal({ start: 1, end: 2 });
  });

  it('a three-clip cycle: "start_cycle" once', () => {
    const { issues } = windows([
      node('a', { start: 'c', duration: 1 }),
      node('b', { start: 'a', duration: 1 }),
      node('c', { start: 'b', duration: 1 }),
    ]);
    expect(issues.map((found) => found.code)).to.deep.equal(['start_cycle']);
  });

  const malformed = ['1s', 'intro * 2', 'intro +', '(intro)'];
  for (const start of malformed) {
    it(`a malformed start ${JSON.stringify(start)}: "start_invalid", falls back to the parent start`, () => {
      const { at, issues } = windows([node('intro', { start: '0', duration: 1 }), node('c', { start, duration: 1 })]);
      expect(issues).to.deep.equal([{ code: 'start_invalid', path: ['c', 'data-start'] }]);
      expect(at('c')).to.deep.equal({ start: 0, end: 1 });
    });
  }

  it('ignores a blank data-start', () => {
    const { at, issues } = windows([node('c', { start: '  ', duration: 1 })]);
    expect(issues).to.deep.equal([]);
    expect(at('c')).to.deep.equal({ start: 0, end: 1 });
  });

  it('names a node without an id by its key in issues', () => {
    const { issues } = windows([{ key: '7', parent: 'root', start: '??' }]);
    expect(issues).to.deep.equal([{ code: 'start_invalid', path: ['7', 'data-start'] }]);
  });
});

describe('timing in a playing composition', () => {
  // frames.webm is 2 s long; the video has no data-duration, so its natural length is probed.
  const body =
    '<video id="clip" src="/test/fixtures/media/frames.webm" data-start="0.5" muted></video>' +
    '<div id="after" data-start="clip" data-duration="0.5">after</div>' +
    '<div id="gap" data-start="clip + 0.5" data-duration="0.2">gap</div>';

  it('a clip following a video without data-duration starts at the video’s natural end', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml({ duration: 4, body }) }));
    const hidden = async (time: number, selector: string) => {
      await el.seek(time);
      return (await probe(el, { ask: 'attribute', selector, name: 'data-fx-hidden' })) !== null;
    };
    expect(await hidden(2.4, '#after')).to.equal(true);
    expect(await hidden(2.5, '#after')).to.equal(false);
    expect(await hidden(2.9, '#after')).to.equal(false);
    expect(await hidden(3, '#after')).to.equal(true);
    expect(await hidden(2.9, '#gap')).to.equal(true);
    expect(await hidden(3, '#gap')).to.equal(false);
    expect(await hidden(0.4, '#clip')).to.equal(true);
    expect(await hidden(0.5, '#clip')).to.equal(false);
  });

  it('reports timing issues of the live document as variable issues at ready', async () => {
    const el = mount({}, { srcdoc: compositionHtml({ body: '<div id="x" data-start="nobody">x</div>' }) });
    const change = await new Promise<CustomEvent>((resolve) =>
      el.addEventListener('variableschange', resolve, { once: true }),
    );
    expect(change.detail.issues.map((found: { code: string }) => found.code)).to.include('start_reference_unknown');
  });
});

describe('resolveTiming on a hostile forward chain', () => {
  it('stops a 20,000-clip forward reference chain with start_chain_too_long instead of overflowing', () => {
    const count = 20_000;
    const nodes = [
      { key: 'root' },
      ...Array.from({ length: count }, (_, index) => ({
        key: `k${index}`,
        id: `c${index}`,
        parent: 'root',
        start: index + 1 < count ? `c${index + 1}` : '0',
        duration: 0.001,
      })),
    ];
    const { windows, issues } = resolveTiming(nodes, 10);
    expect(windows.size).to.equal(count + 1);
    expect(issues.map((found) => found.code)).to.include('start_chain_too_long');
  });
});
