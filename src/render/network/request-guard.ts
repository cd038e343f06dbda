import type { CdpConnection } from '../cdp.js';
import type { RenderNetworkPolicy } from './policy.js';

interface PausedRequest {
  readonly requestId: string;
  readonly request: { readonly url: string };
}

/**
 * Holds every request of a browser until the render's network policy allowed it; refused ones fail as
 * `BlockedByClient` (the page sees a network error: an image stays empty, a fetch rejects) and are reported in the
 * render's issues. Enabled on the browser target rather than per page, so the requests of every page, frame, worker
 * and service worker are held, and redirects are held again at each hop. The requests let through leave by the
 * egress proxy, which connects to the very addresses checked here (`egress-proxy.ts`); WebSockets, never seen
 * here, fail at the refusing proxy `egressProxyFlags` sends them to.
 */
export async function guardRequests(cdp: CdpConnection, policy: RenderNetworkPolicy): Promise<void> {
  cdp.on((event) => {
    // Only the browser target's own interception; a page session never enables Fetch.
    if (event.method !== 'Fetch.requestPaused' || event.sessionId !== undefined) return;
    void answer(cdp, policy, event.params as unknown as PausedRequest);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
}

async function answer(
  cdp: CdpConnection,
  policy: RenderNetworkPolicy,
  { requestId, request }: PausedRequest,
): Promise<void> {
  const reason = await policy.refusal(request.url).catch(() => 'the address check failed');
  if (reason !== undefined) policy.noteBlocked(request.url, reason);
  // The request may be gone already (page closed, navigation cancelled): nothing to answer then.
  await (
    reason === undefined
      ? cdp.send('Fetch.continueRequest', { requestId })
      : cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' })
  ).catch(() => undefined);
}
