import { AddressRefusedError, publicFetch } from '../render/network/egress-fetch.js';

// The public-address rule lives with the renderer, which applies it to what uploaded projects load; the service
// draws the line for URL pages and webhooks in the same place, and connects the same way: to the addresses it
// checked, never to what the name resolves to a second time.
export { isPrivateAddress } from '../render/network/public-address.js';
export { AddressRefusedError };

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/**
 * The fetch for a user-given URL: `configured` where private addresses are allowed anyway (development), else
 * `publicFetch`, which refuses private hosts with `AddressRefusedError` and connects only to the addresses it
 * checked. No other fetch can be trusted with that: it would resolve the name again for the connection.
 */
export function outboundFetch(
  configured: typeof fetch,
  allowPrivateNetwork: boolean,
): (url: string | URL, init: RequestInit) => Promise<Response> {
  return allowPrivateNetwork ? configured : (url, init) => publicFetch(url, init);
}
