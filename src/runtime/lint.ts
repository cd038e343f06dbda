import { Attr } from './constants.js';
import { placeDeclarationFailures } from './declaration-source.js';
import { RENDER_LIMITS } from './render-limits.js';
import { bindingTagNotAllowed, bindingUndeclared } from './bindings.js';
import { colorGradingReference } from './color-grading.js';
import { fitIssues } from './fit.js';
import { parseVariableDeclarations, type VariableDeclaration } from './declarations.js';
import { parseHtml, queryAllDeep } from './html.js';
import { BindingIssueCode, DeclarationIssueCode, ValueIssueCode, issue, describe, type Issue } from './issues.js';
import { metadataOf } from './metadata.js';
import { isBindableSrcTag, isBindableTextTag, isSafeMediaUrl } from './safety.js';
import { compositionOwner } from './scope.js';
import { CompileIssueCode } from './compile/codes.js';
import { missingFilesIn } from './compile/missing-files.js';
import { validateVariables } from './values.js';

/** Codes lint adds to those of declarations and metadata. */
export const LintCode = {
  ...DeclarationIssueCode,
  bindingUndeclared: BindingIssueCode.undeclared,
  bindingTagNotAllowed: BindingIssueCode.tagNotAllowed,
  fitInvalid: BindingIssueCode.fitInvalid,
  fitMinInvalid: BindingIssueCode.fitMinInvalid,
  fitWithoutText: BindingIssueCode.fitWithoutText,
  unsafeMediaDefault: 'unsafe_media_default',
  variableValuesJsonInvalid: 'variable_values_json_invalid',
  variableValuesUndeclared: 'variable_values_undeclared',
  variableValuesInvalid: 'variable_values_invalid',
  colorGradingInvalid: 'color_grading_invalid',
  colorGradingReferenceUndeclared: 'color_grading_reference_undeclared',
  variableUnused: 'variable_unused',
  sourceUnreadable: 'source_unreadable',
  assetUrlRootRelative: 'asset_url_root_relative',
  /** Longer than the default render limits (`RENDER_LIMITS`): the renderer and the service would refuse it. */
  durationOverRenderLimit: 'duration_over_render_limit',
  projectFileMissing: CompileIssueCode.fileMissing,
} as const;

/** Attributes that load a file of the project. */
const ASSET_ATTRIBUTES = ['src', 'href', 'poster', Attr.compositionSrc] as const;
export type LintCode = (typeof LintCode)[keyof typeof LintCode];

export type LintFinding = Issue;

export interface LintOptions {
  /**
   * Returns the HTML of a sub-composition named by `data-composition-src` (relative to the linted file), or
   * `undefined` when it is not available. Enables checking host `data-variable-values` against its declarations.
   */
  readonly readSource?: (path: string) => string | undefined;
  /**
   * Whether the project has the file at a path (from the project's root, `/`-separated). Enables
   * `project_file_missing` for each place the composition names a file it does not have (see missing-files.ts).
   */
  readonly hasFile?: (path: string) => boolean;
  /**
   * The text of a project file at a path (from the project's root), or `undefined` when it cannot be read. With
   * `hasFile`, the stylesheets the composition links are checked for missing files too (`url()`, `@font-face`).
   */
  readonly readFile?: (path: string) => string | undefined;
  /** The linted file's path in the project (default `index.html`): relative URLs resolve against it. */
  readonly file?: string;
}

interface Scope {
  readonly owner: Element | null;
  readonly declarations: VariableDeclaration[];
  readonly used: Set<string>;
  /** Ids bound by `data-var-src`: their defaults become a media `src`. */
  readonly media: Set<string>;
}

/**
 * Statically checks a composition: declaration JSON and fields, defaults against their type and ranges, duplicate
 * ids, bindings to undeclared ids or on disallowed tags (`data-var-src` off media, `data-var-text` on script, style
 * and raw-text elements), `data-var-fit` values, unsafe media defaults, host `data-variable-values`, and
 * declared-but-unused variables (a warning). Findings carry a stable `code`; errors must be fixed before rendering.
 *
 * @example
 * lintComposition(html).filter((finding) => finding.severity === 'error');
 */
export function lintComposition(html: string, options: LintOptions = {}): LintFinding[] {
  const doc = parseHtml(html);
  const metadata = metadataOf(doc);
  const findings: LintFinding[] = [...metadata.issues];
  const scopes = new Map<Element | null, Scope>();
  scopes.set(null, { owner: null, declarations: metadata.variables, used: new Set(), media: new Set() });

  const scopeOf = (element: Element): Scope => {
    const owner = compositionOwner(element);
    let scope = scopes.get(owner);
    if (!scope) {
      // An inline sub-composition declares its own variables on its root.
      const parsed = parseVariableDeclarations(owner!.getAttribute(Attr.compositionVariables), [
        Attr.compositionVariables,
      ]);
      findings.push(...parsed.issues);
      scope = { owner, declarations: parsed.declarations, used: new Set(), media: new Set() };
      scopes.set(owner, scope);
    }
    return scope;
  };
  const declared = (scope: Scope, id: string) => scope.declarations.find((declaration) => declaration.id === id);

  // Every inline sub-composition is linted, also one that no binding points into.
  for (const root of queryAllDeep(doc, `[${Attr.compositionId}]`)) scopeOf(root);
  for (const element of queryAllDeep(doc, `[${Attr.varSrc}]`)) {
    const scope = scopeOf(element);
    const id = element.getAttribute(Attr.varSrc) ?? '';
    scope.used.add(id);
    scope.media.add(id);
    if (!isBindableSrcTag(element.localName)) findings.push(bindingTagNotAllowed(Attr.varSrc, id, element.localName));
    if (!declared(scope, id)) findings.push(bindingUndeclared(Attr.varSrc, id));
  }
  for (const element of queryAllDeep(doc, `[${Attr.varText}]`)) {
    const scope = scopeOf(element);
    const id = element.getAttribute(Attr.varText) ?? '';
    scope.used.add(id);
    if (!isBindableTextTag(element.localName)) findings.push(bindingTagNotAllowed(Attr.varText, id, element.localName));
    if (!declared(scope, id)) findings.push(bindingUndeclared(Attr.varText, id));
  }
  for (const element of queryAllDeep(doc, `[${Attr.varFit}]`)) findings.push(...fitIssues(element));
  for (const element of queryAllDeep(doc, `[${Attr.colorGrading}]`)) {
    lintColorGrading(element, scopeOf(element), findings);
  }
  for (const host of queryAllDeep(doc, `[${Attr.variableValues}]`)) {
    lintHostValues(host, options, findings);
  }
  for (const scope of scopes.values()) lintMediaDefaults(scope, findings);
  lintRootRelativeUrls(doc, findings);
  if (metadata.duration !== undefined && metadata.duration > RENDER_LIMITS.maxDurationSeconds) {
    findings.push(
      issue(
        LintCode.durationOverRenderLimit,
        [Attr.duration],
        `"${Attr.duration}" is ${metadata.duration} s, above the ${RENDER_LIMITS.maxDurationSeconds} s that renders take by default; the renderer and the service refuse it unless configured for more`,
        'warning',
      ),
    );
  }
  if (options.hasFile) {
    const { readFile } = options;
    // A stylesheet that cannot be read is not checked: the compile reports what it cannot read itself.
    const read = (path: string) => {
      try {
        return readFile?.(path);
      } catch {
        return undefined;
      }
    };
    findings.push(...missingFilesIn(html, options.file ?? 'index.html', options.hasFile, { read }));
  }
  reportUnused(doc, scopes, findings);
  return placeDeclarationFailures(html, dedupe(findings));
}

/** Image variables, and any variable bound by `data-var-src`, must default to an allowed media URL (or nothing). */
function lintMediaDefaults(scope: Scope, findings: LintFinding[]): void {
  for (const { id, type, default: value } of scope.declarations) {
    if (type !== 'image' && !scope.media.has(id)) continue;
    if (typeof value !== 'string' || value === '' || isSafeMediaUrl(value)) continue;
    const why = type === 'image' ? `image variable "${id}"` : `variable "${id}" is bound with "data-var-src" and`;
    findings.push(
      issue(
        LintCode.unsafeMediaDefault,
        [Attr.compositionVariables, id, 'default'],
        `${why} has a default ${describe(value)} that is not an allowed media URL`,
      ),
    );
  }
}

/**
 * `/logo.png` means the root of whatever server hosts the page: the preview's site, the render service's project
 * server, a CDN. Relative paths (`logo.png`) travel with the project; root-relative ones break when it moves.
 */
function lintRootRelativeUrls(doc: Document, findings: LintFinding[]): void {
  for (const name of ASSET_ATTRIBUTES) {
    for (const element of queryAllDeep(doc, `[${name}^="/"]`)) {
      const value = element.getAttribute(name)!.trim();
      if (!value.startsWith('/') || value.startsWith('//')) continue;
      findings.push(
        issue(
          LintCode.assetUrlRootRelative,
          [name, value],
          `"${name}" on <${element.localName}> is root-relative ("${value}"); use a path relative to the composition so it loads wherever the project is served (previews, renders)`,
          'warning',
        ),
      );
    }
  }
}

function lintColorGrading(element: Element, scope: Scope, findings: LintFinding[]): void {
  let grading: unknown;
  try {
    grading = JSON.parse(element.getAttribute(Attr.colorGrading) ?? '');
  } catch {
    grading = undefined;
  }
  if (typeof grading !== 'object' || grading === null || Array.isArray(grading)) {
    findings.push(
      issue(
        LintCode.colorGradingInvalid,
        [Attr.colorGrading],
        `"data-color-grading" on <${element.localName}> must be a JSON object`,
      ),
    );
    return;
  }
  // An explicit stack, not recursion: a hostile attribute may nest objects deeper than the call stack allows.
  const pending: unknown[] = [grading];
  while (pending.length > 0) {
    const node = pending.pop();
    const id = colorGradingReference(node);
    if (id !== undefined) {
      scope.used.add(id);
      if (!scope.declarations.some((declaration) => declaration.id === id)) {
        findings.push(
          issue(
            LintCode.colorGradingReferenceUndeclared,
            [Attr.colorGrading, id],
            `"data-color-grading" refers to "$${id}", which this composition does not declare; the text stays as written`,
            'warning',
          ),
        );
      }
    } else if (typeof node === 'object' && node !== null) {
      const children = Object.values(node);
      for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]);
    }
  }
}

function lintHostValues(host: Element, options: LintOptions, findings: LintFinding[]): void {
  let values: unknown;
  try {
    values = JSON.parse(host.getAttribute(Attr.variableValues) ?? '');
  } catch (error) {
    findings.push(
      issue(
        LintCode.variableValuesJsonInvalid,
        [Attr.variableValues],
        `"data-variable-values" is not valid JSON: ${(error as Error).message}`,
      ),
    );
    return;
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    findings.push(
      issue(
        LintCode.variableValuesJsonInvalid,
        [Attr.variableValues],
        `"data-variable-values" must be a JSON object, got ${describe(values)}`,
      ),
    );
    return;
  }
  const source = host.getAttribute(Attr.compositionSrc);
  let declarations: VariableDeclaration[] | undefined;
  if (source !== null && options.readSource) {
    let html: string | undefined;
    let reason = '';
    try {
      html = options.readSource(source);
    } catch (error) {
      // A CLI reader throws ENOENT and the like: that is a finding, not a crash.
      reason = `: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (typeof html !== 'string') {
      findings.push(
        issue(
          LintCode.sourceUnreadable,
          [Attr.compositionSrc, source],
          `sub-composition "${source}" could not be read${reason}`,
          'warning',
        ),
      );
      return;
    }
    declarations = metadataOf(parseHtml(html)).variables;
  } else if (source === null && host.hasAttribute(Attr.compositionVariables)) {
    declarations = parseVariableDeclarations(host.getAttribute(Attr.compositionVariables)).declarations;
  }
  if (!declarations) return;
  for (const found of validateVariables(values, declarations, { path: [Attr.variableValues] })) {
    const undeclared = found.code === ValueIssueCode.undeclared;
    const where = source ? ` (sub-composition "${source}")` : '';
    findings.push(
      issue(
        undeclared ? LintCode.variableValuesUndeclared : LintCode.variableValuesInvalid,
        found.path,
        `${found.message}${where}`,
        undeclared || found.severity === 'warning' ? 'warning' : 'error',
      ),
    );
  }
}

/** A declared id counts as used when bound, referenced by a grading, named in `var(--id)`, or read by a script. */
function reportUnused(doc: Document, scopes: Map<Element | null, Scope>, findings: LintFinding[]): void {
  const styleText = [
    ...queryAllDeep(doc, 'style').map((style) => style.textContent ?? ''),
    ...queryAllDeep(doc, '[style]').map((element) => element.getAttribute('style') ?? ''),
  ].join('\n');
  const scriptText = queryAllDeep(doc, 'script')
    .map((script) => script.textContent ?? '')
    .join('\n');
  for (const scope of scopes.values()) {
    for (const { id } of scope.declarations) {
      if (scope.used.has(id) || namesCustomProperty(styleText, id) || mentions(scriptText, id)) continue;
      findings.push(
        issue(
          LintCode.variableUnused,
          [Attr.compositionVariables, id],
          `variable "${id}" is declared but no binding, style or script uses it`,
          'warning',
        ),
      );
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mentions(text: string, id: string): boolean {
  return new RegExp(`(^|[^\\w$-])${escapeRegExp(id)}($|[^\\w$-])`).test(text);
}

/** True when CSS text names the custom property `--{id}` itself, not merely one that starts with it (`--{id}-x`). */
function namesCustomProperty(css: string, id: string): boolean {
  return new RegExp(`(?<![\\w-])--${escapeRegExp(id)}(?![\\w-]|[^\\x00-\\x7f])`).test(css);
}

function dedupe(findings: LintFinding[]): LintFinding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.code}|${finding.path.join('.')}|${finding.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
