/**
 * Whether a URL's `hostname` names this machine: `localhost`, `127.0.0.0/8` or `[::1]` (as the URL parser writes
 * them). Plain http is taken for these hosts only — the issuer, the client's `callback_url` — since nothing leaves
 * the machine.
 */
export const isLoopbackHostname = (hostname: string): boolean => LOOPBACK.test(hostname);

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
