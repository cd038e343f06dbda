import type { Context, Hono } from 'hono';
import { ErrorCode, JSON_CONTENT_TYPE, Route } from '../../../wire/constants.js';
import type { ServiceContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import { idempotency } from '../../idempotency/idempotency.js';
import { AbortReason } from '../../jobs/job-queue.js';
import { signedLinks } from '../../renders/links.js';
import { renderRecord } from '../../renders/render-record.js';
import type { RenderRow } from '../../renders/render-types.js';
import { submitRender } from '../../renders/submit-render.js';
import { StorageKey } from '../../storage/keys.js';
import { readBodyLimited, requireMediaType } from '../body.js';
import type { ServiceEnv } from '../env.js';
import { decodeListToken, encodeListToken, parseLimit } from '../paging.js';

/** A body asking for a dry run (checked as any other field by the submit). */
const isDryRun = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { dry_run?: unknown }).dry_run === true;

/** `POST /v3/renders`, `GET /v3/renders`, `GET|DELETE /v3/renders/{render_id}`. */
export function renderRoutes(app: Hono<ServiceEnv>, context: ServiceContext): void {
  const { config } = context;
  const record = async (c: Context<ServiceEnv>, render: RenderRow) =>
    renderRecord(
      render,
      await signedLinks(render, {
        signer: context.signer,
        ttlSeconds: config.signedUrlTtlSeconds,
        baseUrl: context.baseUrl(new URL(c.req.url).origin),
        now: config.now(),
        presign: context.storage.presignedGetUrl?.bind(context.storage),
      }),
    );
  const notFound = (id: string) =>
    new ServiceError(ErrorCode.renderNotFound, `no render ${JSON.stringify(id)}`, { param: 'render_id' });

  app.post(
    Route.renders,
    async (c, next) => {
      requireMediaType(c.req.raw, JSON_CONTENT_TYPE);
      const bytes = await readBodyLimited(
        c.req.raw,
        config.limits.jsonBodyBytes,
        ErrorCode.bodyTooLarge,
        'request body',
      );
      c.set('body', bytes);
      try {
        c.set('json', JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
      } catch {
        throw new ServiceError(ErrorCode.bodyInvalid, 'the request body must be UTF-8 JSON');
      }
      await next();
    },
    idempotency(`POST ${Route.renders}`, {
      store: context.idempotency,
      ttlSeconds: config.idempotencyTtlSeconds,
      now: config.now,
      log: config.log,
      events: context.events,
      // A dry run creates nothing a retry could repeat, and its body differs from the submit's only by `dry_run`:
      // recorded, the key would refuse the real submit that follows with it (`idempotency_key_reused`).
      unless: (c) => isDryRun(c.var.json),
    }),
    async (c) => {
      const submitted = await submitRender(context, c.var.principal, c.var.json);
      if ('dryRun' in submitted) return c.json(submitted.dryRun, 200);
      c.set('renderId', submitted.render.id);
      return c.json(await record(c, submitted.render), 202);
    },
  );

  app.get(Route.renders, async (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const token = c.req.query('token');
    const before = token === undefined ? undefined : decodeListToken(token);
    const rows = await context.renders.list(c.var.principal.accountId, limit + 1, before);
    const page = rows.slice(0, limit);
    return c.json({
      data: await Promise.all(page.map((render) => record(c, render))),
      next_token: rows.length > limit ? encodeListToken(page.at(-1)!.seq) : null,
    });
  });

  app.get(Route.render, async (c) => {
    const id = c.req.param('render_id');
    c.set('renderId', id);
    const render = await context.renders.get(c.var.principal.accountId, id);
    if (!render) throw notFound(id);
    return c.json(await record(c, render));
  });

  app.delete(Route.render, async (c) => {
    const id = c.req.param('render_id');
    c.set('renderId', id);
    const render = await context.renders.softDelete(c.var.principal.accountId, id, config.now());
    if (!render) throw notFound(id);
    context.queue.cancel(id, AbortReason.deleted);
    // Outputs (and a url render's page) go; an asset stays, other renders may use it.
    await context.storage.deletePrefix(StorageKey.render(id));
    return c.json({ render_id: id, deleted: true });
  });
}
