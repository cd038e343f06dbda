/**
 * An export frame that captures: opened on the embed, given the project's files, started with a rasteriser, and
 * asked for frames in order with a few in flight (the frame captures one at a time; the next is asked for while
 * the last is encoded). Shared by `exportVideo` and `captureFrame`.
 */
import type { CaptureRasteriser, CaptureRasteriserChoice, CaptureRefusal } from '../runtime/capture-codes.js';
import type { CaptureEncoding } from '../runtime/capture-encoding.js';
import { FxError } from '../runtime/errors.js';
import type { AudioClip } from '../runtime/frame/contract.js';
import type { Issue } from '../runtime/issues.js';
import { MAX_LIST_ITEMS } from '../runtime/protocol/host.js';
import { Message } from '../runtime/protocol/messages.js';
import { outputSize, type OutputSizeOptions } from '../wire/output-size.js';
import { isCapturable, OPEN_CAPTURE, type CaptureFrame, type CaptureReply } from './capture-source.js';
import { ExportErrorCode } from './codes.js';

/** How long the frame may take to check and start, and to capture one frame (media seeks included). */
export const CAPTURE_TIMEOUTS = { startMs: 30_000, frameMs: 30_000 } as const;
/** Frames asked for ahead of the one being encoded: enough to keep both busy, few enough to bound memory. */
export const FRAMES_IN_FLIGHT = 3;

export interface CaptureSession {
  readonly frame: CaptureFrame;
  readonly rasteriser: CaptureRasteriser;
  /** The pictures' size in pixels: the composition's rounded up to even, or the preset asked for (outputSize). */
  readonly width: number;
  readonly height: number;
  /** The project's files the host fetched, by URL. */
  readonly files: ReadonlyMap<string, Blob>;
  /** The composition's sound clips as the frame lists them (hostile: only `files` are ever read for them). */
  readonly audio: readonly AudioClip[];
  /** The frame encodes its pictures as asked (`encode`), sending chunks to `frame.onChunk`; else it sends pixels. */
  readonly encoding: boolean;
}

export interface CaptureSessionOptions {
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly fps: number;
  readonly rasteriser: CaptureRasteriserChoice;
  /** Keep what the composition leaves unpainted transparent (formats with alpha). */
  readonly transparent: boolean;
  /** The pictures' size, as the server renderer's (src/wire/output-size.ts). */
  readonly size: OutputSizeOptions;
  /** How the frame is to encode pictures of the size found (none: it sends pixels). */
  readonly encode?: (size: { readonly width: number; readonly height: number }) => Promise<CaptureEncoding>;
  readonly signal?: AbortSignal;
}

export const abortedError = (signal: AbortSignal) =>
  new FxError(ExportErrorCode.aborted, 'the export was aborted', { cause: signal.reason });

/** Opens and starts an export frame; refuses with `export_capture_refused` what the frame will not capture. */
export async function openCaptureSession(embed: unknown, options: CaptureSessionOptions): Promise<CaptureSession> {
  if (!isCapturable(embed))
    throw new FxError(ExportErrorCode.optionInvalid, 'the embed must be an <fx-composition> element');
  const signal = options.signal ?? new AbortController().signal;
  const frame = await embed[OPEN_CAPTURE]({ variables: options.variables, fps: options.fps, signal });
  try {
    const resources = await fetchResources(frame, signal);
    const { width, height } = outputSize(
      { width: Math.round(frame.width), height: Math.round(frame.height) },
      options.size,
    );
    const encode = await options.encode?.({ width, height });
    if (signal.aborted) throw abortedError(signal);
    const started = await frame.start(
      {
        rasteriser: options.rasteriser,
        width,
        height,
        transparent: options.transparent,
        resources,
        ...(encode ? { encode } : {}),
      },
      CAPTURE_TIMEOUTS.startMs,
    );
    if (signal.aborted) throw abortedError(signal);
    if (!started)
      throw new FxError(
        ExportErrorCode.frameTimeout,
        `the export frame did not start within ${CAPTURE_TIMEOUTS.startMs / 1000} s`,
      );
    if (started.rasteriser === null) throw refusedError(options.rasteriser, started.refusals);
    const files = new Map(resources.map(({ url, blob }) => [url, blob]));
    // Read up to the host's own bound on lists from the frame (protocol/host.ts).
    const audio = started.audio.slice(0, MAX_LIST_ITEMS);
    // A frame that claims to encode what was not asked of it is taken at its word only when it was asked.
    const encoding = encode !== undefined && started.encoding;
    return { frame, rasteriser: started.rasteriser, width, height, files, audio, encoding };
  } catch (error) {
    frame.dispose();
    throw error;
  }
}

/**
 * The frames at `times`, in order, each handed to `take` as RGBA pixels (`undefined` where the frame encodes them
 * itself) before the next is taken; at most {@link FRAMES_IN_FLIGHT} asked for ahead. Stops at the first failure
 * or abort.
 */
export async function captureFrames(
  session: CaptureSession,
  times: readonly number[],
  take: (picture: ImageData | undefined, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const ask = (index: number) => session.frame.capture(times[index]!, CAPTURE_TIMEOUTS.frameMs);
  const pending = times.slice(0, FRAMES_IN_FLIGHT).map((_, index) => ask(index));
  for (let index = 0; index < times.length; index++) {
    const reply = await pending.shift()!;
    if (index + FRAMES_IN_FLIGHT < times.length) pending.push(ask(index + FRAMES_IN_FLIGHT));
    const picture = await checkedPicture(reply, session, times[index]!);
    if (signal?.aborted) throw abortedError(signal);
    await take(picture, index);
  }
}

/**
 * The reply's picture, when it is one of the size asked for (`undefined` when the frame encoded it, as asked);
 * else the failure it is.
 */
async function checkedPicture(
  reply: CaptureReply,
  { width, height, encoding }: CaptureSession,
  time: number,
): Promise<ImageData | undefined> {
  if (!reply)
    throw new FxError(
      ExportErrorCode.frameTimeout,
      `the export frame did not capture ${time} s within ${CAPTURE_TIMEOUTS.frameMs / 1000} s`,
    );
  if (reply.type === Message.captureFailed)
    throw new FxError(
      ExportErrorCode.captureFailed,
      `the frame could not capture ${time} s: ${reply.message.slice(0, 500)}`,
    );
  if (reply.type !== (encoding ? Message.captureEncoded : Message.captured))
    throw new FxError(
      ExportErrorCode.captureFailed,
      `the frame answered the capture of ${time} s with ${reply.type}, not ${encoding ? 'the encoded frame' : 'its pixels'}`,
    );
  if (reply.type === Message.captureEncoded) return undefined;
  // Checked before reading: a hostile frame's Blob of any size is not read into memory.
  const bytes = width * height * 4;
  if (reply.pixels.size !== bytes)
    throw new FxError(
      ExportErrorCode.captureFailed,
      `the frame sent ${reply.pixels.size} bytes at ${time} s, not the ${bytes} of a ${width}×${height} picture`,
    );
  return new ImageData(new Uint8ClampedArray(await reply.pixels.arrayBuffer()), width, height);
}

/** Waits for the frame's encoder to send its last chunks; its failure as `export_encode_failed`. */
export async function flushFrameEncoder(session: CaptureSession): Promise<void> {
  const reply = await session.frame.flush(CAPTURE_TIMEOUTS.frameMs);
  if (!reply)
    throw new FxError(
      ExportErrorCode.frameTimeout,
      `the export frame did not finish encoding within ${CAPTURE_TIMEOUTS.frameMs / 1000} s`,
    );
  if (reply.type === Message.captureFailed)
    throw new FxError(ExportErrorCode.encodeFailed, `the frame's encoder failed: ${reply.message.slice(0, 500)}`);
}

/**
 * The project's files for the frame, which cannot read them itself (its origin is opaque). A file that does not
 * fetch is left out: the capture check then names the element that needs it.
 */
async function fetchResources(frame: CaptureFrame, signal: AbortSignal) {
  const fetched = await Promise.all(
    frame.dependencies.map(async ({ url }) => {
      const response = await fetch(url, { signal }).catch(() => undefined);
      if (signal.aborted) throw abortedError(signal);
      return response?.ok ? { url, blob: await response.blob() } : undefined;
    }),
  );
  return fetched.filter((resource) => resource !== undefined);
}

function refusedError(asked: CaptureRasteriserChoice, refusals: readonly CaptureRefusal[]): FxError {
  const issues: Issue[] = refusals.slice(0, 50).map((refusal) => ({
    code: refusal.code,
    message: refusal.message,
    severity: 'error',
    path: refusal.where ? [refusal.where] : [],
  }));
  const first = refusals[0];
  const summary = first ? `${first.message}${first.where ? ` (${first.where})` : ''}` : 'no reason given';
  const more = refusals.length > 1 ? `, and ${refusals.length - 1} more` : '';
  return new FxError(
    ExportErrorCode.captureRefused,
    `the composition cannot be captured in this browser (${asked}): ${summary}${more}`,
    { issues },
  );
}
