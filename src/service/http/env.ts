import type { Principal } from '../auth/authenticator.js';

/** Hono typing of the service: what middleware leaves on the context. */
export interface ServiceEnv {
  Variables: {
    principal: Principal;
    /** The request body, read once (idempotency hashes it, the route parses it). */
    body: Uint8Array;
  };
}
