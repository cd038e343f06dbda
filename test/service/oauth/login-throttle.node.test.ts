// LoginThrottle (src/service/oauth/login-throttle.ts): wrong passwords counted per account name and address.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LoginThrottle } from '../../../src/service/oauth/login-throttle.js';

describe('LoginThrottle', () => {
  const WINDOW = 900_000;
  const failed = (throttle: LoginThrottle, times: number, start = 0, account = 'alice', address = '192.0.2.1') => {
    for (let index = 0; index < times; index++) throttle.recordFailure(account, address, start + index * 1000);
  };

  test('4 failures: still allowed', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 4);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', 4_000), 0);
  });

  test('5 failures: refused until the first of them leaves the window', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 5);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', 5_000), WINDOW - 5_000);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', WINDOW - 1), 1);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', WINDOW), 0);
  });

  test('a failure once allowed again counts from the newest failures (sliding window)', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 5);
    throttle.recordFailure('alice', '192.0.2.1', WINDOW);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', WINDOW), 1_000);
  });

  test('another address or another account is not affected', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 5);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.2', 5_000), 0);
    assert.equal(throttle.retryAfterMs('bob', '192.0.2.1', 5_000), 0);
  });

  test('a success clears the count', () => {
    const throttle = new LoginThrottle(5, WINDOW);
    failed(throttle, 4);
    throttle.recordSuccess('alice', '192.0.2.1');
    failed(throttle, 4, 10_000);
    assert.equal(throttle.retryAfterMs('alice', '192.0.2.1', 20_000), 0);
  });

  test('the table is capped: the least recently failed pair is forgotten first', () => {
    const throttle = new LoginThrottle(1, WINDOW, 2);
    for (const account of ['a', 'b', 'c']) throttle.recordFailure(account, '192.0.2.1', 0);
    assert.deepEqual(
      ['a', 'b', 'c'].map((account) => throttle.retryAfterMs(account, '192.0.2.1', 1) > 0),
      [false, true, true],
    );
  });
});
