// A leased job's takeover of a render, on the render store of either database: the new holder claims a
// `rendering` render, and the earlier holder's result is refused by its attempt number (the fencing token).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStores } from '../../src/service/db/open-stores.js';
import type { Stores } from '../../src/service/db/stores.js';
import { newId } from '../../src/service/ids.js';
import { IdPrefix } from '../../src/wire/constants.js';
import { newTestLocation, removeTestLocation, RENDER_REQUEST, type TestLocation } from './helpers/database.js';

const result = (attempt: number) => ({
  warnings: [],
  videoKey: 'renders/x/video.mp4',
  thumbnailKey: 'renders/x/thumbnail.jpg',
  output: { width: 1920, height: 1080, frames: 30, duration: 1, start: 0 },
  credits: 1,
  finishedAt: 1,
  attempt,
});

describe('render takeover', () => {
  let location: TestLocation;
  let stores: Stores;
  let accountId: string;
  before(async () => {
    location = await newTestLocation('fx-takeover-test-');
    stores = await openStores(location);
    accountId = (await stores.accounts.ensure('takeover', Date.now())).id;
  });
  after(async () => {
    await stores.close();
    await removeTestLocation(location);
  });

  const newRender = async () => {
    const id = newId(IdPrefix.render);
    await stores.renders.create({
      id,
      accountId,
      credentialId: 'key_x',
      request: RENDER_REQUEST,
      warnings: [],
      projectKey: 'assets/ast_x',
      createdAt: Date.now(),
    });
    return id;
  };

  test('a plain claim takes only a queued render; a takeover also a rendering one, counting the attempt', async () => {
    const id = await newRender();
    assert.equal((await stores.renders.claim(id, Date.now()))?.attempts, 1);
    assert.equal(await stores.renders.claim(id, Date.now()), undefined);
    assert.equal((await stores.renders.claim(id, Date.now(), true))?.attempts, 2);
  });

  test("the earlier holder's result is refused; the holder's is taken", async () => {
    const id = await newRender();
    await stores.renders.claim(id, Date.now());
    await stores.renders.claim(id, Date.now(), true);
    assert.equal(await stores.renders.complete(id, result(1)), false);
    assert.equal(await stores.renders.fail(id, { code: 'x', message: 'x' }, Date.now(), undefined, 1), false);
    assert.equal((await stores.renders.find(id))?.status, 'rendering');
    assert.equal(await stores.renders.complete(id, result(2)), true);
    assert.equal((await stores.renders.find(id))?.status, 'completed');
  });

  test('a failure on the current attempt, or without one, applies', async () => {
    const id = await newRender();
    await stores.renders.claim(id, Date.now());
    assert.equal(await stores.renders.fail(id, { code: 'x', message: 'x' }, Date.now(), undefined, 1), true);
    const other = await newRender();
    assert.equal(await stores.renders.fail(other, { code: 'x', message: 'x' }, Date.now()), true);
  });

  test('a takeover never revives a finished or deleted render', async () => {
    const id = await newRender();
    await stores.renders.claim(id, Date.now());
    await stores.renders.complete(id, result(1));
    assert.equal(await stores.renders.claim(id, Date.now(), true), undefined);
    const deleted = await newRender();
    await stores.renders.softDelete(accountId, deleted, Date.now());
    assert.equal(await stores.renders.claim(deleted, Date.now(), true), undefined);
  });
});
