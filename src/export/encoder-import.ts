// Shared by ./load-encoder.ts and ./load-encoder.classic.ts (which takes the other's place in the classic scripts,
// so it cannot import it).
import { FxError } from '../runtime/errors.js';
import { ExportErrorCode } from './codes.js';

export type VideoOutputModule = typeof import('./encode/video-output.js');

/** Runs `load`; a module that cannot be fetched or evaluated is `export_encoder_unavailable`, naming `what`. */
export async function encoderImport(load: () => Promise<unknown>, what: string): Promise<VideoOutputModule> {
  try {
    return (await load()) as VideoOutputModule;
  } catch (cause) {
    throw new FxError(
      ExportErrorCode.encoderUnavailable,
      `The export encoder (${what}) could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
