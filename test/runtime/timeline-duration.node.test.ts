// The one rule for a root without data-duration: measured from the registered timeline (timeline-duration.ts),
// and what the static readers (metadata, lint) say about it.
import '../../src/runtime/dom-parser.node.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractCompositionMetadata, MetadataIssueCode } from '../../src/runtime/metadata.js';
import { lintComposition } from '../../src/runtime/lint.js';
import { MAX_TIMELINE_SECONDS, timelineLength } from '../../src/runtime/timeline-duration.js';

/** A GSAP-shaped timeline answering these lengths. */
const timeline = (total: unknown, { repeat = 0, duration = total }: { repeat?: number; duration?: unknown } = {}) => ({
  duration: () => duration,
  totalDuration: () => total,
  repeat: () => repeat,
  seek: () => undefined,
  pause: () => undefined,
});

describe('timelineLength', () => {
  test('takes totalDuration(): repeats included, as a seek plays them', () => {
    assert.deepEqual(timelineLength(timeline(9, { repeat: 2, duration: 3 }), 'main'), { seconds: 9 });
  });
  test('takes duration() from a timeline without totalDuration()', () => {
    assert.deepEqual(timelineLength({ duration: () => 4.5, seek() {}, pause() {} }, 'main'), { seconds: 4.5 });
  });
  test('the longest allowed timeline passes', () => {
    assert.deepEqual(timelineLength(timeline(MAX_TIMELINE_SECONDS), 'main'), { seconds: MAX_TIMELINE_SECONDS });
  });
  for (const [name, value] of [
    ['nothing', undefined],
    ['null', null],
    ['a number', 5],
    ['an object without duration()', { seek() {}, pause() {} }],
  ] as const) {
    test(`${name} is not measurable (not registered yet)`, () =>
      assert.equal(timelineLength(value, 'main'), undefined));
  }
  for (const [name, value] of [
    ['repeat: -1', timeline(1e10, { repeat: -1, duration: 2 })],
    ['holding an endless tween (GSAP says 1e10 s)', timeline(1e10 + 3)],
    ['repeat() -1 without totalDuration()', { duration: () => 2, repeat: () => -1, seek() {}, pause() {} }],
    ['Infinity', timeline(Infinity)],
    ['empty (0 s)', timeline(0)],
    ['negative', timeline(-1)],
    ['NaN', timeline(Number.NaN)],
    ['a string length', timeline('5')],
    [
      'a throwing totalDuration()',
      {
        totalDuration: () => {
          throw new Error('boom');
        },
        seek() {},
        pause() {},
      },
    ],
    ['longer than a day', timeline(MAX_TIMELINE_SECONDS + 1)],
  ] as const) {
    test(`${name} → timeline_duration_invalid`, () => {
      const measured = timelineLength(value, 'main');
      assert.equal(measured?.issue?.code, MetadataIssueCode.timelineDurationInvalid);
      assert.match(measured!.issue!.message, /"main"/);
    });
  }
});

const page = (root: string, body: string) =>
  `<!doctype html><html><body><div data-composition-id="main" data-width="320" data-height="180"${root}>${body}</div></body></html>`;
const registers = '<script>window.__timelines = window.__timelines || {}; window.__timelines.main = tl;</script>';

describe('what metadata and lint say about the duration', () => {
  test('a root data-duration: from the attribute, no finding', () => {
    const metadata = extractCompositionMetadata(page(' data-duration="4"', registers));
    assert.deepEqual([metadata.duration, metadata.durationSource, metadata.issues], [4, 'attribute', []]);
  });
  test('no data-duration, a script registers the timeline: from the timeline, a warning', () => {
    const metadata = extractCompositionMetadata(page('', registers));
    assert.deepEqual([metadata.duration, metadata.durationSource], [undefined, 'timeline']);
    assert.deepEqual(
      metadata.issues.map((found) => [found.code, found.severity]),
      [[MetadataIssueCode.durationFromTimeline, 'warning']],
    );
    assert.deepEqual(
      lintComposition(page('', registers)).map((found) => found.code),
      [MetadataIssueCode.durationFromTimeline],
    );
  });
  test('no data-duration and nothing to register a timeline: missing, an error', () => {
    const metadata = extractCompositionMetadata(page('', '<p>still</p>'));
    assert.deepEqual([metadata.duration, metadata.durationSource], [undefined, undefined]);
    assert.deepEqual(
      metadata.issues.map((found) => [found.code, found.severity]),
      [[MetadataIssueCode.durationMissing, 'error']],
    );
  });
  test('a template entry registering its timeline is from the timeline too (no finding: it may be a sub-composition)', () => {
    const metadata = extractCompositionMetadata(
      `<template><div data-composition-id="main">${registers}</div></template>`,
    );
    assert.deepEqual([metadata.durationSource, metadata.issues], ['timeline', []]);
  });
});
