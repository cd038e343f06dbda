/**
 * How a compiled document gets the in-frame runtime (`fx-runtime.js`): a `<script src>` naming its URL, or its
 * code written inline. The browser builds of the SDK carry the code (bundlers need not know about a second file,
 * the frame downloads nothing); the renderer, and a page that sets `FxComposition.runtimeUrl`, name a URL.
 */

/** Posted to the parent window by a runtime `<script src>` that failed to load, so the host fails at once. */
export const RUNTIME_FAILED_MESSAGE = 'fx:runtime-failed';

/**
 * The runtime `<script src>`'s `onerror`. An inline handler: where a CSP forbids it, the host falls back on its
 * ready timeout (and the browser's console names the refused script).
 */
export const RUNTIME_FAILED_HANDLER = `parent.postMessage({type:${JSON.stringify(RUNTIME_FAILED_MESSAGE)}},'*')`;

/** True for the message {@link RUNTIME_FAILED_HANDLER} posts. */
export function isRuntimeFailedMessage(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === RUNTIME_FAILED_MESSAGE;
}
