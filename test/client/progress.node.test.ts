import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeProgress, progressFraction } from '../../src/client/progress.js';

describe('cloud render progress', () => {
  it('tells bytes and frames as a share of their total, bounded to [0, 1]', () => {
    assert.equal(progressFraction({ stage: 'uploading', bytes: 25, totalBytes: 100 }), 0.25);
    assert.equal(progressFraction({ stage: 'rendering', framesDone: 150, framesTotal: 100 }), 1);
    assert.equal(progressFraction({ stage: 'downloading', bytes: -1, totalBytes: 10 }), 0);
  });

  it('has no share without a total, nor for stages without one', () => {
    assert.equal(progressFraction({ stage: 'downloading', bytes: 10, totalBytes: undefined }), undefined);
    assert.equal(progressFraction({ stage: 'rendering', framesDone: 0, framesTotal: undefined }), undefined);
    assert.equal(progressFraction({ stage: 'queued' }), undefined);
  });

  it('labels a stage, with its percent when known', () => {
    assert.equal(describeProgress({ stage: 'zipping', bytes: 999, totalBytes: 1000 }), 'Packing 99%');
    assert.equal(describeProgress({ stage: 'queued' }), 'Queued');
    assert.equal(describeProgress({ stage: 'signing-in' }), 'Signing in');
  });
});
