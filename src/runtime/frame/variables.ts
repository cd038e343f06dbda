import { Attr } from '../constants.js';
import { applyBindings } from '../bindings.js';
import { isolateInstances } from './css-isolation.js';
import { applyFontValues } from './fonts.js';
import { parseVariableDeclarations, type VariableDeclaration } from '../declarations.js';
import { ValueIssueCode, issue, type Issue } from '../issues.js';
import { resolveVariables } from '../precedence.js';
import { FrameAttr } from '../frame-config.js';
import { layoutIssues } from './layout-issues.js';
import { instanceSelector, topDeclaringElement } from './roots.js';

const TOP = '';

interface Scope {
  readonly root: Element | Document;
  readonly declarations: VariableDeclaration[];
  readonly issues: Issue[];
  values?: Record<string, unknown>;
  resolveIssues?: Issue[];
  /** Replaced on every apply (kept apart from resolution issues, so re-applying never repeats them). */
  bindingIssues?: Issue[];
}

/**
 * Variables of every composition in the document: the top level (declarations on <html> or the root, overrides
 * from the host) and each sub-composition instance (declarations and `data-variable-values` on its host;
 * overrides never reach it). Resolved lazily, so scripts running while the document parses see their values.
 */
export class FrameVariables {
  #scopes = new Map<string, Scope>();
  #overrides: Record<string, unknown>;
  /**
   * True once a script read top-level values before the composition was ready. Instance reads do not count:
   * overrides never reach an instance, so a live update cannot change what its scripts read.
   */
  readAtLoad = false;
  #ready = false;

  constructor(overrides: Record<string, unknown>) {
    this.#overrides = overrides;
  }

  /** Resolved values of the top level (`instance` empty) or of an instance. */
  get(instance = TOP): Record<string, unknown> {
    if (!this.#ready && instance === TOP) this.readAtLoad = true;
    return { ...this.#resolved(instance).values };
  }

  markReady(): void {
    this.#ready = true;
  }

  get declarations(): VariableDeclaration[] {
    return this.#scope(TOP).declarations;
  }

  /** Declaration and resolution issues of every scope, each path prefixed with its instance. */
  get issues(): Issue[] {
    return this.#collect((scope) => [...scope.issues, ...(scope.resolveIssues ?? []), ...(scope.bindingIssues ?? [])]);
  }

  /** The issues of the last apply of bindings alone, prefixed like {@link issues}. */
  get bindingIssues(): Issue[] {
    return this.#collect((scope) => scope.bindingIssues ?? []);
  }

  /** Bound elements that do not hold their current values in the layout (see `layoutIssues`), prefixed likewise. */
  layoutIssues(): Issue[] {
    return this.#collect((scope) => layoutIssues(scope.root));
  }

  #collect(of: (scope: Scope) => readonly Issue[]): Issue[] {
    const all: Issue[] = [];
    for (const [key, scope] of this.#scopes) {
      const prefix = key === TOP ? [] : [key];
      for (const found of of(scope)) all.push({ ...found, path: [...prefix, ...found.path] });
    }
    return all;
  }

  /** Replaces the top-level overrides and re-applies the top level in place. */
  setOverrides(overrides: Record<string, unknown>): void {
    this.#overrides = overrides;
    const top = this.#scope(TOP);
    delete top.values;
    this.#apply(TOP, top);
    // New override keys set new properties on the top level, which instances must not inherit either.
    this.#isolateInstances();
  }

  /** Applies bindings and CSS properties of every composition in the document. */
  applyAll(document: Document): void {
    this.#scope(TOP);
    for (const host of document.querySelectorAll(`[${FrameAttr.instance}]`))
      this.#scope(host.getAttribute(FrameAttr.instance)!);
    for (const [key, scope] of this.#scopes) this.#apply(key, scope);
    this.#isolateInstances();
  }

  /** Forgets every scope (their elements were replaced: the body ran again) and applies all again. */
  rescan(document: Document): void {
    this.#scopes.clear();
    this.applyAll(document);
  }

  #isolateInstances(): void {
    isolateInstances([...this.#scopes].map(([key, scope]) => [key, Object.keys(scope.values ?? {})] as const));
  }

  #apply(key: string, scope: Scope): void {
    const { values } = this.#resolved(key);
    scope.bindingIssues = [...applyBindings(scope.root, values!), ...applyFontValues(scope.declarations, values!)];
  }

  #resolved(key: string): Scope {
    const scope = this.#scope(key);
    if (!scope.values) {
      const top = key === TOP;
      const host = top ? undefined : this.#parseHostValues(scope);
      const result = resolveVariables(
        scope.declarations,
        top ? { overrides: this.#overrides } : { host, topLevel: false },
      );
      scope.values = result.values;
      scope.resolveIssues = result.issues;
    }
    return scope;
  }

  #parseHostValues(scope: Scope): unknown {
    const raw = (scope.root as Element).getAttribute(Attr.variableValues);
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      scope.issues.push(
        issue(ValueIssueCode.valuesInvalid, [Attr.variableValues], `"${Attr.variableValues}" is not valid JSON`),
      );
      return undefined;
    }
  }

  #scope(key: string): Scope {
    let scope = this.#scopes.get(key);
    if (scope) return scope;
    const root: Element | Document | null = key === TOP ? document : document.querySelector(instanceSelector(key));
    const declaringElement = key === TOP ? topDeclaringElement() : (root as Element | null);
    const parsed = parseVariableDeclarations(declaringElement?.getAttribute(Attr.compositionVariables), [
      Attr.compositionVariables,
    ]);
    scope = { root: root ?? document, declarations: parsed.declarations, issues: [...parsed.issues] };
    this.#scopes.set(key, scope);
    return scope;
  }
}
