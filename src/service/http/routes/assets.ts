import type { Hono } from 'hono';
import { uploadAsset } from '../../assets/upload-asset.js';
import { DEFAULT_COMPOSITION, ErrorCode, Route, ZIP_CONTENT_TYPE } from '../../../wire/constants.js';
import type { ServiceContext } from '../../context.js';
import { idempotency } from '../../idempotency/idempotency.js';
import { readBodyLimited, requireMediaType } from '../body.js';
import type { ServiceEnv } from '../env.js';

/** `POST /v3/assets`: the raw zip body (`Content-Type: application/zip`), entry file in `?composition=`. */
export function assetRoutes(app: Hono<ServiceEnv>, context: ServiceContext): void {
  const { config } = context;
  app.post(
    Route.assets,
    async (c, next) => {
      requireMediaType(c.req.raw, ZIP_CONTENT_TYPE);
      c.set('body', await readBodyLimited(c.req.raw, config.limits.uploadBytes, ErrorCode.uploadTooLarge, 'upload'));
      await next();
    },
    idempotency(`POST ${Route.assets}`, {
      store: context.idempotency,
      ttlSeconds: config.idempotencyTtlSeconds,
      now: config.now,
      log: config.log,
      events: context.events,
    }),
    async (c) => {
      const asset = await uploadAsset(
        context,
        c.var.principal,
        c.var.body,
        c.req.query('composition') ?? DEFAULT_COMPOSITION,
      );
      return c.json(
        {
          asset_id: asset.id,
          composition: asset.composition,
          file_count: asset.fileCount,
          size_bytes: asset.sizeBytes,
          created_at: new Date(asset.createdAt).toISOString(),
        },
        201,
      );
    },
  );
}
