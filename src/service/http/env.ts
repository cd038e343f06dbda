import type { Principal } from '../auth/authenticator.js';

/** Hono typing of the service: what middleware leaves on the context. */
export interface ServiceEnv {
  Variables: {
    principal: Principal;
    /** The request body, read once (idempotency hashes it, the route parses it). */
    body: Uint8Array;
    /** A JSON route's body, parsed once (a render submit's: idempotency skips a dry run). */
    json: unknown;
    /** The request's `x-request-id` (request-events.ts). */
    requestId: string;
    /** The render a request is about (submitted, read or deleted): named in its log line. */
    renderId: string;
  };
}
