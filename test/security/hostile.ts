/**
 * Shared tools of the element's security tests: hostile compositions (test/fixtures/security/hostile.js) and the
 * request log of test/fixtures/security/server.mjs.
 */
import { compositionHtml, type CompositionOptions } from '../elements/helpers.js';

export type Behaviour =
  | 'forge'
  | 'sparse-ready'
  | 'sparse-variables'
  | 'reload-loop'
  | 'flood-time'
  | 'forge-reads'
  | 'steal-focus'
  | 'take-name';

/** A composition (see `compositionHtml`) that does `behaviours` from its frame. */
export function hostileComposition(behaviours: readonly Behaviour[], options: CompositionOptions = {}): string {
  const script = `<script src="/test/fixtures/security/hostile.js" data-hostile="${behaviours.join(' ')}"></script>`;
  return compositionHtml({ ...options, head: `${script}${options.head ?? ''}` });
}

let logs = 0;

/** A fresh request log: `url(kind)` names a logged response of that kind, `requests()` reads what came. */
export function requestLog() {
  const id = `log-${Date.now()}-${++logs}`;
  return {
    url: (kind: 'font.ttf' | 'font.bin' | 'secret.json' | 'page.html' | 'fake.woff2') =>
      new URL(`/security/log/${id}/${kind}`, location.href).href,
    requests: async (): Promise<{ kind: string; cookie: boolean }[]> =>
      (await fetch(`/security/requests/${id}`)).json(),
  };
}
