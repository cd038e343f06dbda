import type { ServiceContext } from '../context.js';
import { FilesRemovalReason } from '../renders/render-types.js';
import { StorageKey } from '../storage/keys.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Renders or assets read per query; a sweep goes on until none is left. */
const BATCH = 100;

/** What one sweep did (the log has a line per render and asset). */
export interface RetentionSweep {
  /** Renders whose files expired (no more links). */
  readonly expired: number;
  /** Renders whose files this process removed. */
  readonly renders: readonly string[];
  /** Assets whose files this process removed. */
  readonly assets: readonly string[];
}

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/**
 * Removes the stored files retention says go (`config.retention`), keeping every record. Safe with any number of
 * processes sweeping at once: each removal is first taken by one conditional UPDATE, and only the process that took
 * it removes the files.
 *
 * - A finished render's files, `days` after it finished, in two steps: first it is marked expired (its GET answers
 *   `files_expired_at` and no links), then, once every link handed out before has expired (`signedUrlTtlSeconds`
 *   later), its files are removed. A download running on such a link keeps reading: a removed local file stays
 *   readable through the open handle, an S3 GET under way completes.
 * - A deleted render's files (what `DELETE` left), `deletedHours` after the delete.
 * - An asset's files, `days` after its last use (upload or submit), never while a render of it is queued or
 *   rendering; a submit that names it afterwards is refused (`asset_not_found`), and a submit at the same moment
 *   either keeps it (its use is recorded first) or is refused (see `AssetRecords.markUsed`).
 *
 * A removal the storage refuses is given back and the error thrown: the next sweep tries again.
 */
export async function sweepRetention(context: ServiceContext): Promise<RetentionSweep> {
  const { config, renders, assets, storage } = context;
  const { days, deletedHours } = config.retention;
  const now = config.now();
  const expired = days === undefined ? 0 : await renders.expireFiles(now - days * DAY_MS, now);
  const expiredBefore = now - config.signedUrlTtlSeconds * 1000;
  const deletedBefore = now - deletedHours * HOUR_MS;
  const removedRenders: string[] = [];
  for (;;) {
    const due = await renders.filesDue(expiredBefore, deletedBefore, BATCH);
    for (const render of due) {
      // Taken by another process meanwhile: it removes them.
      if (!(await renders.claimFileRemoval(render.id, now, expiredBefore, deletedBefore))) continue;
      try {
        await storage.deletePrefix(StorageKey.render(render.id));
      } catch (error) {
        await renders.releaseFileRemoval(render.id);
        throw error;
      }
      removedRenders.push(render.id);
      context.events.emit('filesRemoved', { kind: 'render', id: render.id, reason: render.reason });
      config.log('render files removed', {
        renderId: render.id,
        reason: render.reason,
        ...(render.reason === FilesRemovalReason.deleted
          ? { deletedAt: iso(render.deletedAt) }
          : { finishedAt: iso(render.finishedAt) }),
      });
    }
    // Every one returned is now taken, by this process or another: the next query does not return it again.
    if (due.length < BATCH) break;
  }
  const removedAssets: string[] = [];
  if (days !== undefined) {
    const usedBefore = now - days * DAY_MS;
    for (;;) {
      const due = await assets.filesDue(usedBefore, BATCH);
      let taken = 0;
      for (const asset of due) {
        // Taken by another process, or a render of it is still queued or rendering: kept for now.
        if (!(await assets.claimFileRemoval(asset.id, now, usedBefore))) continue;
        taken++;
        try {
          await storage.deletePrefix(StorageKey.asset(asset.id));
        } catch (error) {
          await assets.releaseFileRemoval(asset.id);
          throw error;
        }
        removedAssets.push(asset.id);
        context.events.emit('filesRemoved', { kind: 'asset', id: asset.id, reason: 'unused' });
        config.log('asset files removed', { assetId: asset.id, lastUsedAt: iso(asset.lastUsedAt) });
      }
      // A full batch of assets kept by their renders would come back whole: stop until the next sweep.
      if (due.length < BATCH || taken === 0) break;
    }
  }
  return { expired, renders: removedRenders, assets: removedAssets };
}
