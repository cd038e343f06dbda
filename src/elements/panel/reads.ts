/**
 * Which declared ids nothing reads, and which ids the composition reads without declaring them: lint's answer
 * (`variable_unused`, `binding_undeclared`, `color_grading_reference_undeclared`) — the panel does not look again —
 * completed by what the running composition's scripts read (`<fx-composition>.variablesRead`), which lint cannot
 * see (`getVariables().title` in a fetched script).
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

/**
 * `reads` with the ids scripts were seen reading: those declared are used, those not are declarable. Lint's type
 * stays for an id it also found; a script's read says nothing of the type, so the others are strings.
 */
export function withScriptReads(
  reads: CompositionReads,
  scriptReads: readonly string[],
  declared: ReadonlySet<string>,
): CompositionReads {
  if (scriptReads.length === 0) return reads;
  const read = new Set(scriptReads);
  const listed = new Set(reads.undeclared.map(({ id }) => id));
  const fromScripts = scriptReads
    .filter((id) => !declared.has(id) && !listed.has(id))
    .map((id) => ({ id, type: VariableType.string }));
  return {
    unused: new Set([...reads.unused].filter((id) => !read.has(id))),
    undeclared: [...reads.undeclared, ...fromScripts],
  };
}
