// May this render with these values (src/runtime/may-render.ts): errors refuse, warnings too when strict, and the
// refusal is made of the refused issues, in order. Then each caller (fx render, cloudRender, batchRows, the
// service) refuses as the rule says, with its own error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkValues } from '../../src/cli/commands/render.js';
import { BatchErrorCode, batchRows } from '../../src/client/batch-rows.js';
import { checkVariables } from '../../src/client/cloud-render.js';
import type { VariableDeclaration } from '../../src/runtime/declarations.js';
import { FxError, isFxError } from '../../src/runtime/errors.js';
import { issue, ValueIssueCode, type Issue } from '../../src/runtime/issues.js';
import { assertMayRender, type RefusedIssues } from '../../src/runtime/may-render.js';
import { checkProject } from '../../src/service/renders/project-check.js';
import { ErrorCode } from '../../src/wire/constants.js';

const typeError = issue(
  ValueIssueCode.typeMismatch,
  ['variables', 'count'],
  'count should be a finite number',
  'error',
);
const undeclared = issue(ValueIssueCode.undeclared, ['variables', 'titel'], '"titel" is not declared', 'warning');
const clamped = issue(ValueIssueCode.outOfRange, ['variables', 'size'], 'size is above its max', 'warning');

/** What `assertMayRender` refused (the issues its refusal was made of), or `undefined` when it let the render go. */
function refusedBy(issues: Issue[], strict: boolean): RefusedIssues | undefined {
  let refused: RefusedIssues | undefined;
  try {
    const kept = assertMayRender(issues, strict, (found) => {
      refused = found;
      return new FxError(ErrorCode.renderProjectInvalid, found.map((each) => each.message).join('; '));
    });
    assert.equal(kept, issues, 'an accepted render gets its issues back, to report');
  } catch (error) {
    assert.ok(isFxError(error) && error.message === refused?.map((each) => each.message).join('; '));
  }
  return refused;
}

describe('assertMayRender', () => {
  test('no issue: the render goes ahead, strict or not', () => {
    assert.equal(refusedBy([], false), undefined);
    assert.equal(refusedBy([], true), undefined);
  });

  test('an error refuses, strict or not; the refusal names the errors only, in order', () => {
    const second = { ...typeError, path: ['variables', 'other'] };
    assert.deepEqual(refusedBy([undeclared, typeError, clamped, second], false), [typeError, second]);
    assert.deepEqual(refusedBy([typeError], true), [typeError]);
  });

  test('warnings refuse only when strict, and then with every issue, in order', () => {
    assert.equal(refusedBy([undeclared, clamped], false), undefined);
    assert.deepEqual(refusedBy([undeclared, clamped], true), [undeclared, clamped]);
    assert.deepEqual(refusedBy([undeclared, typeError], true), [undeclared, typeError]);
  });

  test("the refusal's own error is what is thrown", () => {
    const own = new RangeError('mine');
    assert.throws(
      () => assertMayRender([typeError], false, () => own),
      (error) => error === own,
    );
  });
});

describe('every render path applies it', () => {
  const declarations: VariableDeclaration[] = [
    { id: 'title', type: 'string', label: 'Title', default: 'Hi' },
    { id: 'count', type: 'number', label: 'Count', default: 1 },
  ];
  const html = `<div data-composition-id="main" data-duration="1" data-width="64" data-height="64" data-composition-variables='${JSON.stringify(declarations)}'></div>`;
  const warned = { titel: 'x' };
  const broken = { count: 'three' };
  /** The codes and paths a check refused with, or the paths of the warnings it let through. */
  const outcome = (check: () => readonly Issue[]) => {
    try {
      return { kept: check().map((found) => found.path.join('.')) };
    } catch (error) {
      // FxError (the CLI, the client) or ServiceError: a code and the refused issues.
      const { code, issues } = error as { code: string; issues?: readonly Issue[] };
      return { code, refused: (issues ?? []).map((found) => found.path.join('.')) };
    }
  };
  const paths: [string, (values: Record<string, unknown>, strict: boolean) => readonly Issue[]][] = [
    ['fx render', (values, strict) => checkValues(values, declarations, strict)],
    ['cloudRender', (values, strict) => checkVariables(values, declarations, strict)],
    ['the service', (values, strict) => checkProject(html, 'index.html', values, strict).warnings],
  ];
  for (const [name, check] of paths) {
    test(`${name}: an error refuses; a warning only when strict`, () => {
      assert.deepEqual(
        outcome(() => check(broken, false)),
        {
          code: ErrorCode.renderProjectInvalid,
          refused: ['variables.count'],
        },
      );
      assert.deepEqual(
        outcome(() => check(warned, false)),
        { kept: ['variables.titel'] },
      );
      assert.deepEqual(
        outcome(() => check(warned, true)),
        {
          code: ErrorCode.renderProjectInvalid,
          refused: ['variables.titel'],
        },
      );
    });
  }

  test('batchRows: a row with an error refuses the batch; a warning only when strict', () => {
    const rows = (values: Record<string, unknown>, strict: boolean) => () =>
      batchRows([{ title: 'A' }, values], {}, declarations, strict).warnings;
    assert.deepEqual(outcome(rows(broken, false)), { code: BatchErrorCode.rowsRefused, refused: ['rows.1.count'] });
    assert.deepEqual(outcome(rows(warned, false)), { kept: ['rows.1.titel'] });
    assert.deepEqual(outcome(rows(warned, true)), { code: BatchErrorCode.rowsRefused, refused: ['rows.1.titel'] });
  });
});
