// The public-address check lives with the renderer, which applies it to what uploaded projects load; the
// service draws the line for URL pages and webhooks in the same place.
export { isPrivateAddress, resolvesToPublicAddresses } from '../render/public-address.js';

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}
