/** The HTML of the composition a panel edits: its `srcdoc`, else the text its `src` serves. */
import { FxError } from '../../runtime/errors.js';
import { FxVariablesPanelErrorCode } from './constants.js';

export interface CompositionSource {
  readonly src: string;
  readonly srcdoc: string | null;
}

export async function readSource(composition: CompositionSource, signal?: AbortSignal): Promise<string> {
  if (!composition.src && composition.srcdoc !== null) return composition.srcdoc;
  if (!composition.src)
    throw new FxError(FxVariablesPanelErrorCode.sourceUnavailable, 'the composition has neither "src" nor "srcdoc"');
  const url = new URL(composition.src, document.baseURI).href;
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ?? null });
  } catch (error) {
    throw new FxError(
      FxVariablesPanelErrorCode.sourceUnavailable,
      `the composition "${url}" could not be fetched: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (!response.ok)
    throw new FxError(
      FxVariablesPanelErrorCode.sourceUnavailable,
      `the composition "${url}" answered HTTP ${response.status}`,
      { status: response.status },
    );
  return response.text();
}
