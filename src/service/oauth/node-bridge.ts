import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, Handler } from 'hono';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { ServiceEnv } from '../http/env.js';

/** The Node request and response under a Hono request; oidc-provider (a Koa app) works on these. */
export function nodeBindings(c: Context<ServiceEnv>): HttpBindings {
  const env = c.env as Partial<HttpBindings> | undefined;
  if (!env?.incoming || !env.outgoing)
    throw new Error(
      "the OAuth authorization server needs the service's Node HTTP server (service.listen), not service.fetch",
    );
  return env as HttpBindings;
}

/**
 * Hands a request under `mountPath` to oidc-provider the way a mounting framework would: `url` relative to the
 * mount, `originalUrl` whole (oidc-provider derives its endpoint URLs from the difference). The provider writes
 * the response itself; the body is left unread by Hono for it.
 */
export function providerHandler(provider: Provider, mountPath: string): Handler<ServiceEnv> {
  const callback = provider.callback();
  return async (c) => {
    const { incoming, outgoing } = nodeBindings(c);
    const url = incoming.url ?? '/';
    (incoming as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    incoming.url = url.slice(mountPath.length) || '/';
    try {
      await callback(incoming, outgoing);
    } finally {
      incoming.url = url;
    }
    return RESPONSE_ALREADY_SENT;
  };
}
