import { randomUUID } from 'node:crypto';
import type { CaptureWorker, WorkerSettings } from './capture-worker.js';
import type { LoadedComposition } from './frame-calls.js';
import { compileInBrowser, type BrowserCompiled } from './compile-in-browser.js';
import { RenderErrorCode, renderError } from './errors.js';
import { outputGeometry, type CheckedOptions, type Geometry } from './options.js';
import { CompileIssueCode } from '../runtime/compile/codes.js';
import { FxError } from '../runtime/errors.js';
import type { Issue } from '../runtime/issues.js';
import { renderBlockers } from '../runtime/compile/missing-files.js';
import { DurationSource } from '../runtime/timeline-duration.js';
import type { ProjectServer } from './project-server.js';
import type { WorkerPool } from './worker-pool.js';

/** Size the compile page gets before the composition's own size is known. */
const COMPILE_VIEWPORT = { width: 1920, height: 1080 };

export interface Prepared {
  readonly compiled: BrowserCompiled & { readonly duration: number };
  readonly geometry: Geometry;
  readonly frames: number;
  /** Workers with the compiled document loaded and `__fx.ready` settled. */
  readonly workers: CaptureWorker[];
  /** Bindings the runtime refused, as the first worker loaded them (every worker loads the same document). */
  readonly bindingIssues: Issue[];
}

/**
 * Compiles the entry in the first browser and gets `concurrency` workers ready on the compiled document. The
 * other browsers start while the first compiles (at scale 1, the common case); when the output needs another
 * scale, which the BeginFrame path only takes at launch, they are replaced.
 */
export async function prepareWorkers(
  pool: WorkerPool,
  server: ProjectServer,
  composition: string,
  checked: CheckedOptions,
  base: Omit<WorkerSettings, 'viewport' | 'scale'>,
  onLoading: (frames: number) => void,
): Promise<Prepared> {
  const launches = Array.from({ length: checked.concurrency }, () =>
    pool.launch({ ...base, viewport: COMPILE_VIEWPORT, scale: 1 }),
  );
  for (const launch of launches) launch.catch(() => undefined); // awaited below, or closed by the pool
  const first = await launches[0]!;
  const compiled = await compileInBrowser(first.page, server, composition, {
    fps: checked.fps,
    variables: checked.variables,
    allowCompositionReadsUnder: checked.allowCompositionReadsUnder,
  });
  refuseBlockers(compiled.issues, checked.allowMissingFiles);
  const fromTimeline = compiled.duration === undefined && compiled.durationSource === DurationSource.timeline;
  if (!fromTimeline && !(compiled.duration! > 0)) {
    throw renderError(
      RenderErrorCode.durationMissing,
      `composition "${composition}" needs a positive "data-duration" on its root, got ${compiled.duration ?? 'none'}`,
    );
  }
  // A duration from the registered timeline is known once a worker loaded the document (workers beyond the
  // frame count are closed then); an authored one is checked before any browser loads it.
  let frames = fromTimeline ? undefined : frameCount(composition, compiled.duration!, checked);
  const geometry = outputGeometry(
    { width: compiled.width ?? COMPILE_VIEWPORT.width, height: compiled.height ?? COMPILE_VIEWPORT.height },
    checked,
  );
  if (frames !== undefined) onLoading(frames);

  let workers = await Promise.all(launches);
  for (const spare of workers.splice(Math.min(checked.concurrency, frames ?? Infinity))) await pool.close(spare);
  if (geometry.scale === 1) {
    await Promise.all(workers.map((worker) => worker.page.setViewport(geometry.viewport, 1)));
  } else {
    await Promise.all(workers.map((worker) => pool.close(worker)));
    workers = await Promise.all(
      workers.map(() => pool.launch({ ...base, viewport: geometry.viewport, scale: geometry.scale })),
    );
  }
  const documentUrl = server.addDocument(randomUUID(), compiled.html);
  const [loaded] = await Promise.all(workers.map((worker) => worker.load(documentUrl)));
  const duration = fromTimeline ? timelineDuration(composition, loaded!) : compiled.duration!;
  if (frames === undefined) {
    frames = frameCount(composition, duration, checked, true);
    onLoading(frames);
    for (const spare of workers.splice(frames)) await pool.close(spare);
  }
  return { compiled: { ...compiled, duration }, geometry, frames, workers, bindingIssues: loaded?.bindingIssues ?? [] };
}

/**
 * Refuses, with the first one's code and all of them in `issues`, what would encode a broken picture without a
 * word: files the project lacks (unless allowed), images the preview cannot show either.
 */
function refuseBlockers(issues: readonly Issue[], allowMissingFiles: boolean): void {
  const blockers = renderBlockers(issues, allowMissingFiles);
  if (blockers.length === 0) return;
  const [first] = blockers;
  const more = blockers.length > 1 ? ` (and ${blockers.length - 1} more)` : '';
  const hint =
    first!.code === CompileIssueCode.fileMissing
      ? '; add the file, or render anyway with "allowMissingFiles" (fx render --allow-missing-files)'
      : '';
  throw new FxError(first!.code, `${first!.message}${more}${hint}`, { issues: blockers });
}

/** The duration the runtime measured from the registered timeline, or its typed reason for having none. */
function timelineDuration(composition: string, loaded: LoadedComposition): number {
  if (loaded.duration > 0) return loaded.duration;
  const found = loaded.durationIssue;
  const code =
    found?.code === RenderErrorCode.timelineDurationInvalid
      ? RenderErrorCode.timelineDurationInvalid
      : RenderErrorCode.durationMissing;
  throw renderError(code, `composition "${composition}": ${found?.message ?? 'its timeline gave it no duration'}`);
}

/** round(duration × fps), once the duration and the frame count are within the render's limits. */
function frameCount(composition: string, duration: number, checked: CheckedOptions, fromTimeline = false): number {
  if (duration > checked.maxDurationSeconds) {
    throw renderError(
      RenderErrorCode.durationTooLong,
      `composition "${composition}" must last at most ${checked.maxDurationSeconds} s ("maxDurationSeconds"), got ${fromTimeline ? `a timeline of ${duration} s` : `"data-duration" ${duration}`}`,
    );
  }
  const frames = Math.max(1, Math.round(duration * checked.fps));
  if (frames > checked.maxFrames) {
    throw renderError(
      RenderErrorCode.durationTooLong,
      `composition "${composition}" must have at most ${checked.maxFrames} frames ("maxFrames"), got ${frames} (${duration} s at ${checked.fps} fps)`,
    );
  }
  return frames;
}
