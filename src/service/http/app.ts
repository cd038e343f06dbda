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
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { renderRoutes } from './routes/renders.js';
import type { ServiceMetrics } from '../observe/metrics.js';
import { TrustedProxies } from './client-address.js';
import { requestEvents } from './request-events.js';

/** `/metrics` on an app: served when `metrics` is given (on and not on a port of its own), behind `token` if set. */
export interface ServedMetrics {
  readonly metrics: ServiceMetrics | undefined;
  readonly token: string | undefined;
}

const NO_METRICS: ServedMetrics = { metrics: undefined, token: undefined };

function observed(context: ServiceContext, served: ServedMetrics): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  app.use(requestEvents(context.events, new TrustedProxies(context.config.trustedProxies)));
  if (served.metrics) metricsRoutes(app, served.metrics, served.token);
  return app;
}

/** The `/v3` HTTP API. Every answer that is not a success carries the `{ error: { code, message, param } }` body. */
export function createApp(context: ServiceContext, served: ServedMetrics = NO_METRICS): Hono<ServiceEnv> {
  const app = observed(context, served);
  const auth = bearerAuth(context.authenticator);
  healthRoutes(app, context);
  // Before authentication: a browser's preflight carries no credentials.
  app.use('/v3/*', apiCors());
  // `/v3/renders/*` also matches `/v3/renders` itself.
  for (const path of [Route.assets, `${Route.renders}/*`, Route.account]) app.use(path, auth);

  fileRoutes(app, context);
  assetRoutes(app, context);
  renderRoutes(app, context);
  accountRoutes(app, context);
  context.config.routes(app);

  answerErrors(app, context);
  return app;
}

/** A worker's HTTP: `/healthz`, `/readyz` and `/metrics` only, on a port of its own (the /v3 API is the api processes'). */
export function createWorkerApp(context: ServiceContext, served: ServedMetrics = NO_METRICS): Hono<ServiceEnv> {
  const app = observed(context, served);
  healthRoutes(app, context);
  answerErrors(app, context);
  return app;
}

/** `/metrics` alone, for a port of its own (`FX_SERVICE_METRICS_PORT`). */
export function createMetricsApp(context: ServiceContext, served: ServedMetrics): Hono<ServiceEnv> {
  const app = observed(context, served);
  answerErrors(app, context);
  return app;
}

/** Every answer that is not a success carries the `{ error: { code, message, param } }` body. */
function answerErrors(app: Hono<ServiceEnv>, context: ServiceContext): void {
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
}
