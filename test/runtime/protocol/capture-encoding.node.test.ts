// The messages of an export encoded in the frame (src/runtime/capture-encoding.ts), each end's checks: a host's
// `encode` the frame would configure an encoder with, and the frame's chunks the host would mux. Anything
// malformed, out of bounds or of the wrong type is dropped whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENCODED_CHUNK_LIMITS } from '../../../src/runtime/capture-encoding.js';
import { isHostMessage } from '../../../src/runtime/protocol/frame.js';
import { isFrameMessage } from '../../../src/runtime/protocol/host.js';
import { Message } from '../../../src/runtime/protocol/messages.js';

const start = {
  type: Message.captureStart,
  id: 1,
  rasteriser: 'auto',
  width: 640,
  height: 360,
  transparent: false,
  resources: [],
};
const encode = { codec: 'avc1.64001f', bitrate: 4e6, fps: 30, keyFrameEvery: 60, alpha: false, avc: true };

describe('capture-start with encode (host → frame)', () => {
  test('accepts no encode, and an encode within bounds', () => {
    assert.equal(isHostMessage(start), true);
    for (const more of [{}, { fps: 240 }, { keyFrameEvery: 1 }, { alpha: true, avc: false, codec: 'vp09.00.10.08' }])
      assert.equal(isHostMessage({ ...start, encode: { ...encode, ...more } }), true, JSON.stringify(more));
  });

  test('refuses an encode the frame could not configure an encoder with', () => {
    for (const more of [
      { codec: 42 },
      { codec: 'a'.repeat(101) },
      { bitrate: 0 },
      { bitrate: -1 },
      { bitrate: Infinity },
      { bitrate: 2e9 },
      { fps: 0 },
      { fps: 241 },
      { fps: Number.NaN },
      { keyFrameEvery: 0 },
      { keyFrameEvery: 1.5 },
      { alpha: 'yes' },
      { avc: undefined },
    ])
      assert.equal(isHostMessage({ ...start, encode: { ...encode, ...more } }), false, JSON.stringify(more));
    for (const value of [null, 'avc', [], 1])
      assert.equal(isHostMessage({ ...start, encode: value }), false, String(value));
  });

  test('capture-flush carries an id', () => {
    assert.equal(isHostMessage({ type: Message.captureFlush, id: 3 }), true);
    for (const id of [undefined, '3', 1.5, Number.NaN])
      assert.equal(isHostMessage({ type: Message.captureFlush, id }), false, String(id));
  });
});

describe('encoded-chunk (frame → host)', () => {
  const chunk = {
    type: Message.encodedChunk,
    index: 0,
    key: true,
    data: new ArrayBuffer(16),
    decoderConfig: { codec: 'avc1.64001f', codedWidth: 640, codedHeight: 360, description: new ArrayBuffer(32) },
  };

  test('accepts a chunk with or without alpha and a decoder configuration', () => {
    assert.equal(isFrameMessage(chunk), true);
    assert.equal(isFrameMessage({ ...chunk, decoderConfig: undefined, key: false, index: 9 }), true);
    assert.equal(isFrameMessage({ ...chunk, alpha: new ArrayBuffer(4) }), true);
  });

  test('refuses chunks whose fields are not what an encoder gives, or past the bounds', () => {
    const tooLarge = { byteLength: ENCODED_CHUNK_LIMITS.maxBytes + 1 };
    for (const [what, more] of [
      ['a negative index', { index: -1 }],
      ['a fractional index', { index: 0.5 }],
      ['an index as text', { index: '0' }],
      ['key as text', { key: 'key' }],
      ['no bytes', { data: new ArrayBuffer(0) }],
      ['bytes as a typed array', { data: new Uint8Array(4) }],
      ['bytes as a Blob-like record', { data: tooLarge }],
      ['alpha as a string', { alpha: 'x' }],
      ['empty alpha', { alpha: new ArrayBuffer(0) }],
      ['a decoder configuration without a codec', { decoderConfig: { codedWidth: 640, codedHeight: 360 } }],
      ['a decoder configuration of size 0', { decoderConfig: { codec: 'avc1', codedWidth: 0, codedHeight: 360 } }],
      [
        'a description past its bound',
        {
          decoderConfig: {
            codec: 'avc1',
            codedWidth: 640,
            codedHeight: 360,
            description: new ArrayBuffer(ENCODED_CHUNK_LIMITS.maxDescriptionBytes + 1),
          },
        },
      ],
      ['a colour space that is not a record', { decoderConfig: { ...chunk.decoderConfig, colorSpace: 'bt709' } }],
    ] as const)
      assert.equal(isFrameMessage({ ...chunk, ...more }), false, what);
  });

  test('capture-started says whether the frame encodes; capture-encoded and capture-flushed carry an id', () => {
    const started = { type: Message.captureStarted, id: 1, rasteriser: 'foreign-object', refusals: [], audio: [] };
    assert.equal(isFrameMessage({ ...started, encoding: true }), true);
    assert.equal(isFrameMessage({ ...started, encoding: false }), true);
    for (const encoding of [undefined, 'yes', 1])
      assert.equal(isFrameMessage({ ...started, encoding }), false, String(encoding));
    assert.equal(isFrameMessage({ type: Message.captureEncoded, id: 2, time: 0.5 }), true);
    assert.equal(isFrameMessage({ type: Message.captureEncoded, id: 2, time: -1 }), false);
    assert.equal(isFrameMessage({ type: Message.captureFlushed, id: 2 }), true);
    assert.equal(isFrameMessage({ type: Message.captureFlushed }), false);
  });
});
