import { isRuntimeFailedMessage } from '../../runtime/runtime-script.js';

/**
 * Resolves `true` once the runtime `<script src>` in `iframe` reports that it failed to load (a 404, a blocked or
 * unreachable URL); stops listening, unresolved, once `settled` settles first. The frame's own `onerror` posts the
 * report (runtime-script.ts): without it the host would wait for its ready timeout.
 */
export function runtimeLoadFailure(iframe: HTMLIFrameElement, settled: Promise<unknown>): Promise<true> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== iframe.contentWindow || !isRuntimeFailedMessage(event.data)) return;
      removeEventListener('message', onMessage);
      resolve(true);
    };
    addEventListener('message', onMessage);
    void settled.then(() => removeEventListener('message', onMessage));
  });
}
