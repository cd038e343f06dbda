import { RenderErrorCode } from '../../render/errors.js';
import { CompileIssueCode } from '../../runtime/compile/compile.js';
import { FailureCode } from '../../wire/constants.js';
import type { RenderFailure } from '../renders/render-types.js';

/**
 * What API clients and webhooks are told for each failure code. The renderer's own messages stay in the service
 * log: they carry FFmpeg and browser stderr tails, server paths and the renderer's local URLs.
 */
const PUBLIC_MESSAGES: Readonly<Record<string, string>> = {
  [CompileIssueCode.entryNotFound]: 'the entry composition could not be loaded from the project',
  [CompileIssueCode.entryEmpty]: 'the entry composition is empty',
  [CompileIssueCode.entryInvalid]:
    'the entry composition could not be compiled; it needs an element with "data-composition-id"',
  [CompileIssueCode.tooLarge]: 'the composition and its files are larger than the compiler accepts',
  // The renderer's message names the file by its URL on the render's project server: the log keeps it.
  [CompileIssueCode.fileMissing]:
    'a file the composition names is not in the project; "fx lint" or "fx cloud render --dry-run" lists which',
  [CompileIssueCode.imageTooLarge]:
    'an <img crossorigin> of the composition is larger than the compiler inlines (4 MiB); make it smaller, or drop "crossorigin"',
  [RenderErrorCode.optionInvalid]: 'the renderer refused a render option',
  [RenderErrorCode.resolutionFormatUnsupported]: '4k is rendered without alpha; use mp4 for 4k',
  [RenderErrorCode.projectNotFound]: 'the project of the render is missing on the server',
  [RenderErrorCode.compositionPathRefused]: 'the entry composition path is outside the project',
  [RenderErrorCode.durationMissing]:
    'the composition needs a positive "data-duration" on its root, or a timeline registered as window.__timelines[<root id>]',
  [RenderErrorCode.timelineDurationInvalid]:
    'the timeline the composition registered (it has no root "data-duration") is empty, repeats forever or is too long',
  [RenderErrorCode.durationTooLong]: 'the composition is longer, or has more frames, than this service renders',
  [RenderErrorCode.bundleMissing]: 'the renderer is not installed completely on the server',
  [RenderErrorCode.browserNotFound]: 'the renderer is not installed completely on the server',
  [RenderErrorCode.browserCrashed]: 'the browser crashed while rendering; try again, or simplify the composition',
  [RenderErrorCode.compositionLoadFailed]:
    'a script of the composition failed while loading, or the runtime never became ready; check the preview for errors',
  [RenderErrorCode.frameCaptureFailed]: 'the browser returned no image for a frame several times in a row',
  [RenderErrorCode.ffmpegNotFound]: 'the renderer is not installed completely on the server',
  [RenderErrorCode.ffmpegFailed]: 'encoding the video failed',
  [RenderErrorCode.timeout]: 'a step of the render took longer than its time limit',
  [RenderErrorCode.aborted]: 'the render was aborted',
  [FailureCode.failed]: 'the render failed',
  [FailureCode.interrupted]: 'the render was interrupted too many times and is not retried again',
};

const CODE_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;

/**
 * Splits a renderer error into what clients see — its `code` when it is a well-formed one (else
 * `render_failed`) and the fixed message of that code — and what only the log gets: the original message.
 */
export function renderFailure(error: unknown): { failure: RenderFailure; detail: string } {
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === 'string' && CODE_PATTERN.test(raw) ? raw : FailureCode.failed;
  const message = PUBLIC_MESSAGES[code] ?? `the render failed with "${code}"; the service log has the details`;
  return {
    failure: { code, message },
    detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
  };
}
