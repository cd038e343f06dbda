/**
 * Export frames of `<fx-composition>` (issue 33): a frame of its own per export, compiled from what the element
 * loaded with the export's values on the export's frame grid, mounted behind the frame on stage (it must paint:
 * not `visibility: hidden`, see the styles) and never shown. The frame on stage plays on meanwhile.
 */
import type { CaptureFrame, CaptureRequest } from '../../export/capture-source.js';
import { ExportErrorCode } from '../../export/codes.js';
import { FxError } from '../../runtime/errors.js';
import { Message } from '../../runtime/protocol/messages.js';
import type { CompiledComposition } from '../../runtime/compile/compile.js';
import type { ProjectDependency } from '../../client/zip/embed-files.js';
import { settledMetadata, stageOf, type Stage } from './frame-reports.js';
import { FrameSession, READY_TIMEOUT_MS } from './frame-session.js';
import type { PreviewCompile } from './compile-preview.js';

/** What an export frame needs of its element. */
export interface CaptureHost {
  readonly variables: Record<string, unknown>;
  readonly dependencies: readonly ProjectDependency[];
  compile(values: Record<string, unknown>, fps: number, signal: AbortSignal): Promise<PreviewCompile> | undefined;
  mount(iframe: HTMLIFrameElement, stage: Stage): void;
}

export async function openCaptureFrame(host: CaptureHost, request: CaptureRequest): Promise<CaptureFrame> {
  const signal = request.signal ?? new AbortController().signal;
  const aborted = () => new FxError(ExportErrorCode.aborted, 'the export was aborted', { cause: signal.reason });
  if (signal.aborted) throw aborted();
  const values = { ...(request.variables ?? host.variables) };
  const compiling = host.compile(values, request.fps, signal);
  if (!compiling)
    throw new FxError(ExportErrorCode.notReady, 'the composition has not loaded: give it a src or srcdoc first');
  const { compiled } = await compiling.catch((error: unknown) => {
    throw signal.aborted ? aborted() : error;
  });
  // A compile that finished after the abort: nothing is mounted (a listener added now would never be called).
  if (signal.aborted) throw aborted();
  refuseBroken(compiled);
  const known = { ...compiled.metadata, issues: [...compiled.metadata.issues, ...compiled.issues] };
  let onChunk: CaptureFrame['onChunk'];
  const session = new FrameSession(compiled.html, `${known.id ?? 'Composition'} (export)`, {
    onMessage: (message) => {
      if (message.type === Message.encodedChunk) onChunk?.(message);
    },
  });
  session.iframe.classList.add('incoming');
  session.iframe.setAttribute('aria-hidden', 'true');
  host.mount(session.iframe, stageOf(known));
  const onAbort = () => session.dispose();
  signal.addEventListener('abort', onAbort, { once: true });
  const ready = await session.ready;
  signal.removeEventListener('abort', onAbort);
  if (signal.aborted) {
    session.dispose();
    throw aborted();
  }
  if (!ready) {
    session.dispose();
    throw new FxError(
      ExportErrorCode.frameTimeout,
      `the export frame did not get ready within ${READY_TIMEOUT_MS / 1000} s`,
    );
  }
  const { metadata } = settledMetadata(known, ready);
  const stage = stageOf(metadata);
  return {
    width: stage.width,
    height: stage.height,
    duration: stage.duration,
    fps: request.fps,
    dependencies: host.dependencies,
    start: (options, ms) => session.startCapture(options, ms),
    capture: (time, ms) => session.capture(time, ms),
    get onChunk() {
      return onChunk;
    },
    set onChunk(listener) {
      onChunk = listener;
    },
    flush: (ms) => session.flushCapture(ms),
    dispose: () => session.dispose(),
  };
}

/** A compile with errors (a missing file, a declaration that cannot be read) exports nothing. */
function refuseBroken(compiled: CompiledComposition): void {
  const broken = compiled.issues.find((issue) => issue.severity === 'error');
  if (broken) throw new FxError(broken.code, broken.message, { issues: compiled.issues });
}
