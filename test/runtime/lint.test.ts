// Lint in a real Chromium, parsing with the browser's own DOMParser. lint.node.test.ts runs the same table in Node.
import { expect } from '@open-wc/testing';
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

const trap = () => (globalThis as Record<string, unknown>)[TRAP];
const settle = () => new Promise<void>((resolve) => setTimeout(() => requestAnimationFrame(() => resolve()), 100));

describe('lintComposition (browser DOMParser)', () => {
  it('has a reported and an absent case for every code', () => {
    expect(uncoveredCodes()).to.deep.equal([]);
  });

  for (const testCase of lintCases) {
    it(`${testCase.code} ${testCase.expect}: ${testCase.name}`, () => {
      const findings = lintCase(testCase);
      expect(findings.map(describeFinding).sort()).to.deep.equal([...testCase.findings].sort());
      const codes = findings.map((finding) => finding.code);
      if (testCase.expect === 'reported') expect(codes).to.include(testCase.code);
      else expect(codes).not.to.include(testCase.code);
      expect(findings.flatMap(findingShapeProblems)).to.deep.equal([]);
    });
  }

  for (const testCase of hostileCases) {
    it(`survives ${testCase.name}`, () => {
      const findings = lintCase(testCase);
      expect(findings.map(describeFinding).sort()).to.deep.equal([...testCase.findings].sort());
      expect(findings.flatMap(findingShapeProblems)).to.deep.equal([]);
    });
  }

  it('never runs scripts or handlers of the linted HTML', async () => {
    delete (globalThis as Record<string, unknown>)[TRAP];
    for (const testCase of hostileCases) lintCase(testCase);
    await settle();
    expect(trap()).to.equal(undefined);
  });

  it('lints 2000 declarations, each bound, in under a second', () => {
    const html = manyDeclarations();
    const started = performance.now();
    const findings = lintComposition(html);
    const elapsed = performance.now() - started;
    expect(findings).to.deep.equal([]);
    expect(elapsed).to.be.below(1000);
  });

  it('reports every one of 2000 unbound declarations as unused, in under a second', () => {
    const html = manyDeclarations().replace(/<span data-var-text="[^"]*"><\/span>/g, '');
    const started = performance.now();
    const findings = lintComposition(html);
    const elapsed = performance.now() - started;
    expect(new Set(findings.map((finding) => finding.code))).to.deep.equal(new Set(['variable_unused']));
    expect(findings).to.have.length(2000);
    expect(elapsed).to.be.below(1000);
  });
});
