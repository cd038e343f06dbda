/** How `<fx-composition>` compiles what it shows. */
import {
  compileComposition,
  withOverrides,
  type CompiledComposition,
  type HtmlEntry,
} from '../../runtime/compile/compile.js';
import type { Issue } from '../../runtime/issues.js';
import { hasFontSources, inlineFontSources } from './font-sources.js';
import { PREVIEW_FPS } from './frame-reports.js';

/** The compile options the element sets. */
export interface PreviewCompileOptions {
  /** Where the frame loads `fx-runtime.js` from, or its code written into the frame (one of the two). */
  readonly runtimeUrl?: string;
  readonly runtimeScript?: string;
  readonly nonce?: string;
  readonly allowCompositionReadsUnder: readonly string[];
  readonly signal: AbortSignal;
  /** The frame grid; the preview's ({@link PREVIEW_FPS}) unless an export asks for its own. */
  readonly fps?: number;
}

export interface PreviewCompile {
  readonly compiled: CompiledComposition;
  /** Font sources refused because they were not font files. */
  readonly fontIssues: Issue[];
}

/**
 * Compiles `entry` with `values` as overrides, reading the declarations too (the host never believes the frame's
 * report of them). Sources of declared font variables go in as `data:` URLs, fetched as soon as the compile has
 * read the declarations.
 */
export async function compilePreview(
  entry: string | HtmlEntry,
  values: Record<string, unknown>,
  base: string,
  options: PreviewCompileOptions,
): Promise<PreviewCompile> {
  let fontIssues: Issue[] = [];
  const overrides = async ({ variables }: CompiledComposition['metadata']) => {
    if (!hasFontSources(values, variables)) return values;
    const fonts = await inlineFontSources(values, variables, base);
    fontIssues = fonts.issues;
    return fonts.values;
  };
  const compiled = await compileComposition(entry, { ...options, overrides, fps: options.fps ?? PREVIEW_FPS });
  return { compiled, fontIssues };
}

/**
 * `previous` with `values` as its overrides, when nothing else needs fetching: no declared font variable names a
 * source to inline. Undefined otherwise (compile again). Spares a reload the fetches and the parse of a compile.
 */
export function withPreviewValues(
  previous: PreviewCompile,
  values: Record<string, unknown>,
): PreviewCompile | undefined {
  if (hasFontSources(values, previous.compiled.metadata.variables)) return undefined;
  return { compiled: withOverrides(previous.compiled, values), fontIssues: [] };
}
