// The lint table of lint-cases.ts, in Node: the parse5 + linkedom adapter must give the browser's findings exactly.
import '../../src/runtime/dom-parser.node.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lintComposition } from '../../src/runtime/lint.js';
import {
  TRAP,
  describeFinding,
  findingShapeProblems,
  hostileCases,
  lintCase,
  lintCases,
  manyDeclarations,
  uncoveredCodes,
} from './lint-cases.js';

describe('lintComposition (Node adapter)', () => {
  test('has a reported and an absent case for every code', () => {
    assert.deepEqual(uncoveredCodes(), []);
  });

  for (const testCase of lintCases) {
    test(`${testCase.code} ${testCase.expect}: ${testCase.name}`, () => {
      const findings = lintCase(testCase);
      assert.deepEqual(findings.map(describeFinding).sort(), [...testCase.findings].sort());
      const codes = findings.map((finding) => finding.code);
      assert.equal(codes.includes(testCase.code), testCase.expect === 'reported');
      assert.deepEqual(findings.flatMap(findingShapeProblems), []);
    });
  }

  for (const testCase of hostileCases) {
    test(`survives ${testCase.name}`, () => {
      const findings = lintCase(testCase);
      assert.deepEqual(findings.map(describeFinding).sort(), [...testCase.findings].sort());
      assert.deepEqual(findings.flatMap(findingShapeProblems), []);
    });
  }

  test('never runs scripts or handlers of the linted HTML', async () => {
    delete (globalThis as Record<string, unknown>)[TRAP];
    for (const testCase of hostileCases) lintCase(testCase);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((globalThis as Record<string, unknown>)[TRAP], undefined);
  });

  test('lints 2000 declarations, each bound, in under a second', () => {
    const html = manyDeclarations();
    const started = performance.now();
    const findings = lintComposition(html);
    const elapsed = performance.now() - started;
    assert.deepEqual(findings, []);
    assert.ok(elapsed < 1000, `took ${elapsed.toFixed(0)} ms`);
  });

  test('reports every one of 2000 unbound declarations as unused, in under a second', () => {
    const html = manyDeclarations().replace(/<span data-var-text="[^"]*"><\/span>/g, '');
    const started = performance.now();
    const findings = lintComposition(html);
    const elapsed = performance.now() - started;
    assert.deepEqual(new Set(findings.map((finding) => finding.code)), new Set(['variable_unused']));
    assert.equal(findings.length, 2000);
    assert.ok(elapsed < 1000, `took ${elapsed.toFixed(0)} ms`);
  });
});
