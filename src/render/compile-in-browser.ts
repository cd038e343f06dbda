import { isAbsolute, normalize, sep } from 'node:path';
import { FxError } from '../runtime/errors.js';
import type { compileComposition } from '../runtime/compile/compile.js';
import type { Issue } from '../runtime/issues.js';
import type { DurationSource } from '../runtime/timeline-duration.js';
import { RenderErrorCode, renderError } from './errors.js';
import type { BrowserPage } from './page.js';
import { ServerPath, type ProjectServer } from './project-server.js';

export interface BrowserCompiled {
  readonly html: string;
  readonly width: number | undefined;
  readonly height: number | undefined;
  readonly duration: number | undefined;
  /** Where the duration comes from: with `timeline`, the loaded document measures it (timeline-duration.ts). */
  readonly durationSource: DurationSource | undefined;
  readonly issues: Issue[];
}

type CompileAnswer = { ok: true; compiled: BrowserCompiled } | { ok: false; code: string; message: string };

interface CompileInput {
  readonly entryUrl: string;
  readonly runtimeUrl: string;
  readonly overrides: Record<string, unknown>;
  readonly fps: number;
  readonly readable: string[];
}

/**
 * Runs in the compile page (`BrowserPage.call`), on the `window.fx` of `fx.iife.js`: typed against the compiler's
 * own signature, and written for the page (its argument and page globals only, no named inner functions).
 */
async function compileInPage(input: CompileInput): Promise<CompileAnswer> {
  const fx = (window as unknown as { fx: { compileComposition: typeof compileComposition } }).fx;
  try {
    const { html, metadata, issues } = await fx.compileComposition(new URL(input.entryUrl), {
      runtimeUrl: input.runtimeUrl,
      overrides: input.overrides,
      fps: input.fps,
      allowCompositionReadsUnder: input.readable,
    });
    return {
      ok: true,
      compiled: {
        html,
        width: metadata.width,
        height: metadata.height,
        duration: metadata.duration,
        durationSource: metadata.durationSource,
        issues: [...metadata.issues, ...issues],
      },
    };
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    return { ok: false, code: String(code || 'composition_invalid'), message: String(message || error) };
  }
}

/** The entry's path inside the project as a URL path, refusing absolute paths and `..` escapes. */
export function compositionUrlPath(composition: string): string {
  const normalized = normalize(composition.replaceAll('\\', '/'));
  if (
    isAbsolute(normalized) ||
    normalized === '..' ||
    normalized.startsWith(`..${sep}`) ||
    normalized.includes('\0') ||
    /^[a-z][a-z0-9+.-]*:/i.test(composition)
  ) {
    throw renderError(
      RenderErrorCode.compositionPathRefused,
      `"composition" must be a path inside the project, got "${composition}"`,
    );
  }
  return normalized.split(sep).map(encodeURIComponent).join('/');
}

/**
 * Compiles the entry with the real compiler inside the render browser, exactly as `<fx-composition>` does in a
 * page: the compile page loads `fx.iife.js` and calls `fx.compileComposition(url, { runtimeUrl, overrides, fps,
 * allowCompositionReadsUnder })`. The composition may have the compiler read the whole project (an entry in a
 * subfolder may name `../shared/x.css`) and the folders the caller lists, nothing else: not the service's network,
 * not `file:`. Compiler errors
 * keep their codes (`composition_not_found`, …).
 */
export async function compileInBrowser(
  page: BrowserPage,
  server: ProjectServer,
  composition: string,
  options: {
    readonly fps: number;
    readonly variables: Record<string, unknown>;
    readonly allowCompositionReadsUnder: readonly string[];
  },
): Promise<BrowserCompiled> {
  const entryUrl = server.url(`/${compositionUrlPath(composition)}`);
  await page.goto(server.url(ServerPath.compilePage));
  const answer = await page.call('compiling the composition', compileInPage, {
    entryUrl,
    runtimeUrl: server.url(ServerPath.runtime),
    overrides: options.variables,
    fps: options.fps,
    readable: [server.baseUrl, ...options.allowCompositionReadsUnder],
  });
  if (!answer || typeof answer !== 'object')
    throw renderError(
      RenderErrorCode.compositionLoadFailed,
      'the compile page returned nothing; is "fx.iife.js" a current build?',
    );
  if (!answer.ok) throw new FxError(answer.code, answer.message);
  return answer.compiled;
}
