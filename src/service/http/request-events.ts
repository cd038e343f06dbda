import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { ServerResponse } from 'node:http';
import { Header } from '../../wire/constants.js';
import type { ServiceEvents } from '../observe/events.js';
import { clientAddress, type TrustedProxies } from './client-address.js';
import type { ServiceEnv } from './env.js';

/** A request id a client or proxy may give: short, printable, nothing to escape in a log line. */
const REQUEST_ID = /^[A-Za-z0-9._:@/-]{1,128}$/;
/** The route of a request no route answered (its path would make a series per URL). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The first middleware of every app: takes the request's `x-request-id` (a well-formed one) or makes one, answers
 * with it, and says `requestFinished` with the matched route's pattern, the status and the time taken, whatever
 * answered (a route, the error handler, the 404), and the client's address (`X-Forwarded-For` from `trustedProxies`).
 */
export function requestEvents(events: ServiceEvents, trustedProxies: TrustedProxies): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header(Header.requestId);
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    try {
      await next();
    } finally {
      // A handler that wrote the Node response itself (the OAuth server) answered with its own status and headers.
      const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
      const sent = outgoing?.headersSent === true;
      if (!sent) c.res.headers.set(Header.requestId, requestId);
      const status = sent ? outgoing!.statusCode : c.res.status;
      // A handler (one argument) answered; middleware takes `next` too.
      const route = matchedRoutes(c).findLast((matched) => matched.handler.length < 2)?.path ?? UNMATCHED_ROUTE;
      const principal = c.get('principal');
      const peer = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
      const renderId = c.get('renderId');
      events.emit('requestFinished', {
        method: c.req.method,
        route,
        path: c.req.path,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        requestId,
        client: clientAddress(peer, c.req.header('x-forwarded-for'), trustedProxies),
        ...(principal ? { accountId: principal.accountId } : {}),
        ...(renderId === undefined ? {} : { renderId }),
      });
    }
  };
}
