/** How `<fx-composition>` compiles what it shows. */
import { compileWith, type CompiledComposition, type HtmlEntry } from '../runtime/compile.js';
import type { Issue } from '../runtime/issues.js';
import { metadataOf } from '../runtime/metadata.js';
import { hasFontSources, inlineFontSources } from './font-sources.js';
import { PREVIEW_FPS } from './frame-reports.js';

/** The compile options the element sets. */
export interface PreviewCompileOptions {
  readonly runtimeUrl: string;
  readonly nonce?: string;
  readonly signal: AbortSignal;
}

export interface PreviewCompile {
  readonly compiled: CompiledComposition;
  /** Font sources refused because they were not font files. */
  readonly fontIssues: Issue[];
}

/**
 * Compiles `entry` with `values` as overrides, reading the declarations too (the host never believes the frame's
 * report of them). Sources of declared font variables go in as `data:` URLs: the declarations come with the
 * compile, so when values name font files, it compiles again with those inlined.
 */
export async function compilePreview(entry: string | HtmlEntry, values: Record<string, unknown>, base: string, options: PreviewCompileOptions): Promise<PreviewCompile> {
  const compile = (overrides: Record<string, unknown>) => compileWith(entry, { ...options, overrides, fps: PREVIEW_FPS }, metadataOf);
  const compiled = await compile(values);
  const declarations = compiled.metadata.variables;
  if (options.signal.aborted || !hasFontSources(values, declarations)) return { compiled, fontIssues: [] };
  const fonts = await inlineFontSources(values, declarations, base);
  return { compiled: options.signal.aborted ? compiled : await compile(fonts.values), fontIssues: fonts.issues };
}
