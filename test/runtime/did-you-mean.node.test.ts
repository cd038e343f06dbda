import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closestId, undeclaredMessage } from '../../src/runtime/did-you-mean.js';
import { validateVariables } from '../../src/runtime/values.js';

const DECLARED = ['title', 'subtitle', 'accent', 'logo'];

test('a near miss names the declared id it most likely meant', () => {
  assert.equal(closestId('titel', DECLARED), 'title', 'two letters swapped');
  assert.equal(closestId('Title', DECLARED), 'title', 'case');
  assert.equal(closestId('acent', DECLARED), 'accent', 'a letter missing');
  assert.equal(closestId('subtitles', DECLARED), 'subtitle', 'a letter more');
  assert.equal(closestId('logos', DECLARED), 'logo');
});

test('no suggestion for an id far from every declared one', () => {
  assert.equal(closestId('headline', DECLARED), undefined);
  assert.equal(closestId('x', DECLARED), undefined);
  assert.equal(closestId('title', []), undefined);
});

test('validateVariables says it in the undeclared warning', () => {
  const [found] = validateVariables({ titel: 'Hi' }, [
    { id: 'title', type: 'string', label: 'Title', default: '' },
  ] as never);
  assert.equal(found?.message, 'variable "titel" is not declared by this composition; did you mean "title"?');
  assert.equal(undeclaredMessage('zzz', DECLARED), 'variable "zzz" is not declared by this composition');
});
