import type { Hono } from 'hono';
import { ErrorCode, Route } from '../../../wire/constants.js';
import type { ServiceContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import type { ServiceEnv } from '../env.js';

/** The current calendar month in UTC: the usage period. */
export function usagePeriod(now: number): { start: number; end: number } {
  const date = new Date(now);
  return {
    start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  };
}

/**
 * `GET /v3/account`: identity, credential kind and this month's usage (for `fx auth status`), plus the webhook
 * secret for API keys only: an OAuth token lives in a browser or a CLI on a user's machine, and webhooks are
 * verified by servers, which hold API keys.
 */
export function accountRoutes(app: Hono<ServiceEnv>, context: ServiceContext): void {
  app.get(Route.account, async (c) => {
    const principal = c.var.principal;
    const account = await context.accounts.get(principal.accountId);
    if (!account) throw new ServiceError(ErrorCode.invalidToken, 'the credential belongs to no account');
    const period = usagePeriod(context.config.now());
    const usage = await context.renders.usage(account.id, period.start, period.end);
    return c.json({
      account_id: account.id,
      name: account.name,
      credential: { id: principal.credentialId, kind: principal.kind },
      ...(principal.kind === 'api_key' ? { webhook_secret: account.webhookSecret } : {}),
      usage: {
        period_start: new Date(period.start).toISOString(),
        period_end: new Date(period.end).toISOString(),
        credits_used: usage.creditsUsed,
        renders_total: usage.rendersTotal,
        renders_completed: usage.rendersCompleted,
        renders_failed: usage.rendersFailed,
      },
    });
  });
}
