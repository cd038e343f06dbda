// FxError's typed codes: `isFxError(error, code)` narrows `error.code` to that code (checked by tsc: the
// assignments below do not compile without the narrowing), and a code table types the errors built from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompileIssueCode } from '../../src/runtime/compile/codes.js';
import { FxError, isFxError, RuntimeErrorCode } from '../../src/runtime/errors.js';
import { validateVariables } from '../../src/runtime/values.js';
import { RenderErrorCode, renderError } from '../../src/render/errors.js';

test('isFxError(error, code) is true for that code only, and narrows the code', () => {
  const caught: unknown = new FxError(CompileIssueCode.entryNotFound, '"x" answered HTTP 404', { status: 404 });
  assert.equal(isFxError(caught, CompileIssueCode.entryEmpty), false);
  assert.equal(isFxError(new Error('plain'), CompileIssueCode.entryNotFound), false);
  if (!isFxError(caught, CompileIssueCode.entryNotFound))
    return assert.fail('expected an FxError with composition_not_found');
  const code: 'composition_not_found' = caught.code;
  assert.equal(code, 'composition_not_found');
  assert.equal(caught.status, 404);
});

test("an error built from a code table carries that table's type", () => {
  const error = renderError(RenderErrorCode.durationMissing, 'no duration');
  const code: RenderErrorCode = error.code;
  // @ts-expect-error a render error's code is never a compile code
  const wrong: CompileIssueCode = error.code;
  assert.equal(code, wrong);
  assert.equal(code, 'composition_duration_missing');
});

test('strict validation throws variables_invalid with the issues', () => {
  try {
    validateVariables({ nope: 1 }, [], { strict: true });
    assert.fail('expected a throw');
  } catch (error) {
    assert.ok(isFxError(error, RuntimeErrorCode.variablesInvalid));
    assert.deepEqual(
      error.issues.map((found) => found.code),
      ['undeclared'],
    );
  }
});
