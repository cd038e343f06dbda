/**
 * Which declared ids nothing reads, and which ids the composition reads without declaring them, as lint finds them
 * (`variable_unused`, `binding_undeclared`, `color_grading_reference_undeclared`): the panel shows lint's answer,
 * it does not look again. Scripts reading an undeclared id are not found (lint cannot see `getVariables().x`).
 */
import { Attr, VariableType } from '../../runtime/constants.js';
import type { Issue } from '../../runtime/issues.js';
import { LintCode, lintComposition } from '../../runtime/lint.js';

export interface UndeclaredRead {
  readonly id: string;
  /** What the read implies: `data-var-src` an image, `data-var-text` a string, a color grading field a number. */
  readonly type: VariableType;
}

export interface CompositionReads {
  /** Declared ids no binding, style or script uses. */
  readonly unused: ReadonlySet<string>;
  readonly undeclared: readonly UndeclaredRead[];
}

const READ_TYPES: Readonly<Record<string, VariableType>> = {
  [Attr.varSrc]: VariableType.image,
  [Attr.varText]: VariableType.string,
  [Attr.colorGrading]: VariableType.number,
};

/** The ids lint says are unused or read undeclared; `declared` keeps the answer to the root's own ids. */
export function compositionReads(html: string, declared: ReadonlySet<string>): CompositionReads {
  let findings: Issue[];
  try {
    findings = lintComposition(html);
  } catch {
    // No DOMParser, or a document the parser gives up on: nothing known, nothing badged.
    findings = [];
  }
  const unused = new Set<string>();
  const undeclared = new Map<string, UndeclaredRead>();
  for (const { code, path } of findings) {
    const [where, id] = path;
    if (typeof id !== 'string') continue;
    if (code === LintCode.variableUnused && declared.has(id)) unused.add(id);
    const undeclaredRead = code === LintCode.bindingUndeclared || code === LintCode.colorGradingReferenceUndeclared;
    if (undeclaredRead && id !== '' && !declared.has(id) && !undeclared.has(id))
      undeclared.set(id, { id, type: READ_TYPES[String(where)] ?? VariableType.string });
  }
  return { unused, undeclared: [...undeclared.values()] };
}
