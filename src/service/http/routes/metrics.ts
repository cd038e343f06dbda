import type { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, Header, Route } from '../../../wire/constants.js';
import { ServiceError } from '../../errors.js';
import type { ServiceMetrics } from '../../observe/metrics.js';
import type { ServiceEnv } from '../env.js';

const REALM = 'Bearer realm="fx-metrics"';

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * `GET /metrics`: the Prometheus text of this service instance. With a token, only for `Authorization: Bearer
 * <token>` (401 otherwise); never cached.
 */
export function metricsRoutes(app: Hono<ServiceEnv>, metrics: ServiceMetrics, token: string | undefined): void {
  app.get(Route.metrics, async (c) => {
    if (token !== undefined) {
      const header = c.req.header(Header.authorization) ?? '';
      const given = /^Bearer +(\S+) *$/i.exec(header)?.[1];
      if (given === undefined || !sameText(given, token))
        throw new ServiceError(ErrorCode.authenticationRequired, '/metrics needs its "Authorization: Bearer" token', {
          param: 'Authorization',
          headers: { [Header.wwwAuthenticate]: REALM },
        });
    }
    const { contentType, body } = await metrics.scrape();
    return c.body(body, 200, { [Header.contentType]: contentType, 'cache-control': 'no-store' });
  });
}
