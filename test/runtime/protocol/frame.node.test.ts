// What the frame accepts from the host for the playback settings: a hostile or broken host message is dropped
// whole, so the frame never plays at a rate or volume the element would refuse.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostMessage } from '../../../src/runtime/protocol/frame.js';
import { Message, PLAYBACK_RATE } from '../../../src/runtime/protocol/messages.js';

describe('set-rate', () => {
  test('accepts rates within the range browsers play media at', () => {
    for (const rate of [PLAYBACK_RATE.min, 0.5, 1, 2, PLAYBACK_RATE.max])
      assert.equal(isHostMessage({ type: Message.setRate, rate }), true, String(rate));
  });

  test('refuses zero, negative, out-of-range, non-finite and non-number rates', () => {
    for (const rate of [
      0,
      -1,
      PLAYBACK_RATE.min / 2,
      PLAYBACK_RATE.max + 1,
      Number.NaN,
      Infinity,
      -Infinity,
      '2',
      null,
      undefined,
    ]) {
      assert.equal(isHostMessage({ type: Message.setRate, rate }), false, String(rate));
    }
  });
});

describe('set-volume', () => {
  test('accepts volumes from 0 to 1', () => {
    for (const volume of [0, 0.25, 1])
      assert.equal(isHostMessage({ type: Message.setVolume, volume }), true, String(volume));
  });

  test('refuses volumes outside [0, 1] and non-numbers', () => {
    for (const volume of [-0.01, 1.01, Number.NaN, Infinity, '1', true])
      assert.equal(isHostMessage({ type: Message.setVolume, volume }), false, String(volume));
  });
});

describe('set-variables', () => {
  test('accepts values alone, or with the compiled document the frame reruns from', () => {
    assert.equal(isHostMessage({ type: Message.setVariables, values: { title: 'x' } }), true);
    assert.equal(isHostMessage({ type: Message.setVariables, values: {}, compiled: '<!doctype html>' }), true);
    assert.equal(isHostMessage({ type: Message.setVariables, values: {}, compiled: '' }), true);
  });

  test('refuses a compiled document that is not a string, and values that are not an object', () => {
    for (const compiled of [null, 0, {}, ['<html>'], true])
      assert.equal(isHostMessage({ type: Message.setVariables, values: {}, compiled }), false, String(compiled));
    for (const values of [null, 'x', 1, undefined])
      assert.equal(isHostMessage({ type: Message.setVariables, values }), false, String(values));
  });
});
