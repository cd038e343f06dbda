import type { Principal } from '../auth/authenticator.js';
import { ErrorCode, IdPrefix } from '../../wire/constants.js';
import type { ServiceContext } from '../context.js';
import { isCommitOutcomeUnknown } from '../db/errors.js';
import { ServiceError } from '../errors.js';
import { newId } from '../ids.js';
import { StorageKey } from '../storage/keys.js';
import type { AssetRecord } from './asset-records.js';
import { checkProjectArchive } from './zip-extract.js';
import { checkRelativePath } from './zip-names.js';

/**
 * Checks a zipped project from its directory, then inflates it entry by entry straight into storage (atomically:
 * an entry failing its checks midway leaves nothing) and records the asset. A refused archive writes nothing; a
 * crash mid-write leaves only a temporary folder swept on start.
 */
export async function uploadAsset(
  context: ServiceContext,
  principal: Principal,
  archive: Uint8Array,
  composition: string,
): Promise<AssetRecord> {
  let entry: string;
  try {
    entry = checkRelativePath(composition, '"composition"');
  } catch (error) {
    throw new ServiceError(ErrorCode.parameterInvalid, (error as Error).message, { param: 'composition' });
  }
  const project = checkProjectArchive(archive, entry, context.config.limits);
  const asset: AssetRecord = {
    id: newId(IdPrefix.asset),
    accountId: principal.accountId,
    composition: entry,
    fileCount: project.files.length,
    sizeBytes: project.sizeBytes,
    createdAt: context.config.now(),
  };
  await context.storage.putTree(StorageKey.asset(asset.id), project.files);
  try {
    await context.assets.create(asset);
  } catch (error) {
    // A record that may have landed keeps its files.
    if (!isCommitOutcomeUnknown(error)) await context.storage.deletePrefix(StorageKey.asset(asset.id));
    throw error;
  }
  return asset;
}
