import type { Hono } from 'hono';
import { Route } from '../../../wire/constants.js';
import type { ServiceContext } from '../../context.js';
import { readiness } from '../../health/readiness.js';
import type { ServiceEnv } from '../env.js';

/** What `/healthz` and `/readyz` answer: never cached, readable without credentials (probes have none). */
const NO_STORE = { 'cache-control': 'no-store' };

/** `GET /healthz` and `GET /readyz`, outside `/v3`: no authentication, no CORS (probes are not browsers). */
export function healthRoutes(app: Hono<ServiceEnv>, context: ServiceContext): void {
  app.get(Route.healthz, (c) => c.json({ status: 'ok' }, 200, NO_STORE));
  app.get(Route.readyz, async (c) => {
    const { ready, checks } = await readiness(context);
    return c.json({ status: ready ? 'ready' : 'not_ready', checks }, ready ? 200 : 503, NO_STORE);
  });
}
