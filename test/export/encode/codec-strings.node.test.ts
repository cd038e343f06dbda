// The codec strings and bitrates of in-browser export (src/export/encode): levels picked by size and rate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { audioBitrate, videoBitrate } from '../../../src/export/encode/bitrates.js';
import { videoCodecString } from '../../../src/export/encode/codec-strings.js';

test('the lowest level that takes the size and the rate', () => {
  // 640×360 is 920 macroblocks (level 2.2 by size); 1.38 Mbit/s fits it.
  assert.equal(videoCodecString('avc', 640, 360, videoBitrate('avc', 'high', 640, 360, 30)), 'avc1.640016');
  // 1080p (8160 macroblocks) at 12.4 Mbit/s: level 4.
  assert.equal(videoCodecString('avc', 1920, 1080, videoBitrate('avc', 'high', 1920, 1080, 30)), 'avc1.640028');
  // 4K at 60 fps, high: 99.5 Mbit/s, level 5.1 (level 5's 22080 macroblocks hold 4K's 32400 too few).
  assert.equal(videoCodecString('avc', 3840, 2160, videoBitrate('avc', 'high', 3840, 2160, 60)), 'avc1.640033');
  assert.equal(videoCodecString('vp9', 1920, 1080, videoBitrate('vp9', 'standard', 1920, 1080, 30)), 'vp09.00.40.08');
  assert.equal(videoCodecString('vp9', 640, 360, 1_000_000), 'vp09.00.21.08');
  assert.equal(videoCodecString('av1', 1920, 1080, 8_000_000), 'av01.0.08M.08');
  assert.equal(videoCodecString('av1', 1920, 1080, 25_000_000), 'av01.0.08H.08');
  assert.equal(videoCodecString('vp8', 1920, 1080, 8_000_000), 'vp8');
  // Past every level: the highest, for the encoder to refuse.
  assert.equal(videoCodecString('avc', 16384, 16384, 1_000_000), 'avc1.64003e');
});

test('bitrates by quality, size, rate and codec', () => {
  assert.equal(videoBitrate('avc', 'standard', 1920, 1080, 30), 6_220_800);
  assert.equal(videoBitrate('avc', 'draft', 1920, 1080, 30), 3_110_400);
  assert.equal(videoBitrate('avc', 'high', 1920, 1080, 30), 12_441_600);
  assert.equal(videoBitrate('vp9', 'standard', 1920, 1080, 30), 4_354_560);
  assert.equal(videoBitrate('avc', 'draft', 160, 90, 24), 250_000, 'the floor');
  assert.equal(audioBitrate('opus', 'standard', 2), 128_000);
  assert.equal(audioBitrate('opus', 'standard', 1), 64_000);
  assert.equal(audioBitrate('aac', 'high', 2), 256_000);
});
