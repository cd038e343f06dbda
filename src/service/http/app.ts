import { Hono } from 'hono';
import { bearerAuth } from '../auth/bearer.js';
import { ErrorCode, Route } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { apiCors } from './cors.js';
import { ClientAbortedError, errorBody, internalError, ServiceError } from '../errors.js';
import type { ServiceEnv } from './env.js';
import { accountRoutes } from './routes/account.js';
import { assetRoutes } from './routes/assets.js';
import { fileRoutes } from './routes/files.js';
import { renderRoutes } from './routes/renders.js';

/** The `/v3` HTTP API. Every answer that is not a success carries the `{ error: { code, message, param } }` body. */
export function createApp(context: ServiceContext): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  const auth = bearerAuth(context.authenticator);
  // Before authentication: a browser's preflight carries no credentials.
  app.use('/v3/*', apiCors());
  // `/v3/renders/*` also matches `/v3/renders` itself.
  for (const path of [Route.assets, `${Route.renders}/*`, Route.account]) app.use(path, auth);

  fileRoutes(app, context);
  assetRoutes(app, context);
  renderRoutes(app, context);
  accountRoutes(app, context);
  context.config.routes(app);

  app.notFound((c) => {
    const error = new ServiceError(ErrorCode.routeNotFound, `no route ${c.req.method} ${new URL(c.req.url).pathname}`);
    return c.json(errorBody(error), 404);
  });
  app.onError((caught, c) => {
    if (caught instanceof ClientAbortedError || c.req.raw.signal.aborted) {
      // Not a failure of the service, and nobody reads the answer: one line, no stack.
      context.config.log('client aborted', {
        method: c.req.method,
        path: c.req.path,
        error: caught instanceof Error ? caught.message : String(caught),
      });
      return c.body(null, 400);
    }
    const error = caught instanceof ServiceError ? caught : internalError(caught);
    if (error.status >= 500)
      context.config.log('request failed', { path: c.req.path, error: String((caught as Error)?.stack ?? caught) });
    return c.json(errorBody(error), error.status as 400, error.headers);
  });
  return app;
}
