// The state machines of src/service/renders/render-state.ts: the transition tables as intended (from any other
// state a transition is refused: no next state), the decisions the job files take from them, the stores applying
// exactly the tables (on both databases: npm run test:postgres), and docs/service.md drawing exactly the tables.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { openStores } from '../../../src/service/db/open-stores.js';
import type { Stores } from '../../../src/service/db/stores.js';
import { newId } from '../../../src/service/ids.js';
import { AbortReason } from '../../../src/service/jobs/job-queue.js';
import type { StoredChunkResult } from '../../../src/service/renders/chunk-store.js';
import {
  afterChunkError,
  afterDeadChunkHolder,
  afterInterruption,
  afterJoinError,
  afterRenderError,
  CHUNK_INITIAL,
  CHUNK_TRANSITIONS,
  ChunkStatus,
  ChunkTransition,
  finalStates,
  Interruption,
  nextState,
  RENDER_INITIAL,
  RENDER_TRANSITIONS,
  RenderTransition,
  type Transition,
} from '../../../src/service/renders/render-state.js';
import { IdPrefix, RenderStatus, TERMINAL_STATUSES } from '../../../src/wire/constants.js';
import { newTestLocation, RENDER_REQUEST, removeTestLocation, type TestLocation } from '../helpers/database.js';

const { queued, rendering, completed, failed } = RenderStatus;
const RENDER_STATES = Object.values(RenderStatus);
const CHUNK_STATES = Object.values(ChunkStatus);

/** Every (transition, state) pair: the next state, or undefined where the transition is refused. */
function matrix<State extends string>(table: Readonly<Record<string, Transition<State>>>, states: readonly State[]) {
  return Object.fromEntries(
    Object.entries(table).map(([name, transition]) => [
      name,
      Object.fromEntries(states.map((state) => [state, nextState(transition, state)])),
    ]),
  );
}

describe('the render transition table', () => {
  test('each transition applies from its states only, to one state', () => {
    const none = { queued: undefined, rendering: undefined, completed: undefined, failed: undefined };
    assert.deepEqual(matrix(RENDER_TRANSITIONS, RENDER_STATES), {
      claim: { ...none, queued: rendering },
      take_over: { ...none, rendering },
      join: { ...none, rendering },
      complete: { ...none, rendering: completed },
      fail: { ...none, queued: failed, rendering: failed },
      requeue: { ...none, rendering: queued },
      resume: { ...none, rendering: queued },
    });
  });

  test("a render starts queued; the states no transition leaves are src/wire's terminal ones", () => {
    assert.equal(RENDER_INITIAL, queued);
    assert.deepEqual(finalStates(RENDER_TRANSITIONS, RENDER_STATES).sort(), [...TERMINAL_STATUSES].sort());
  });

  test('every state is reached from the initial one', () => {
    assert.deepEqual(reachable(RENDER_TRANSITIONS, RENDER_INITIAL).sort(), [...RENDER_STATES].sort());
  });
});

describe('the chunk transition table', () => {
  test('each transition applies from its states only, to one state', () => {
    const none = { queued: undefined, rendering: undefined, done: undefined, failed: undefined };
    assert.deepEqual(matrix(CHUNK_TRANSITIONS, CHUNK_STATES), {
      claim: { ...none, queued: 'rendering' },
      take_over: { ...none, rendering: 'rendering' },
      finish: { ...none, rendering: 'done' },
      retry: { ...none, rendering: 'queued' },
      hand_back: { ...none, rendering: 'queued' },
      fail: { ...none, rendering: 'failed' },
    });
  });

  test('a chunk starts queued and ends done or failed; every state is reached', () => {
    assert.equal(CHUNK_INITIAL, ChunkStatus.queued);
    assert.deepEqual(finalStates(CHUNK_TRANSITIONS, CHUNK_STATES).sort(), [ChunkStatus.done, ChunkStatus.failed]);
    assert.deepEqual(reachable(CHUNK_TRANSITIONS, CHUNK_INITIAL).sort(), [...CHUNK_STATES].sort());
  });
});

function reachable<State extends string>(table: Readonly<Record<string, Transition<State>>>, initial: State): State[] {
  const seen = new Set([initial]);
  let size = 0;
  while (seen.size > size) {
    size = seen.size;
    for (const { from, to } of Object.values(table)) if (from.some((state) => seen.has(state))) seen.add(to);
  }
  return [...seen];
}

describe('the decisions', () => {
  test('an interrupted render: failed once started maxAttempts times, else resumed (restart) or taken over (lease)', () => {
    assert.equal(afterInterruption(1, 3, Interruption.restart), RenderTransition.resume);
    assert.equal(afterInterruption(2, 3, Interruption.restart), RenderTransition.resume);
    assert.equal(afterInterruption(3, 3, Interruption.restart), RenderTransition.fail);
    assert.equal(afterInterruption(2, 3, Interruption.lease), RenderTransition.takeOver);
    assert.equal(afterInterruption(3, 3, Interruption.lease), RenderTransition.fail);
    assert.equal(afterInterruption(4, 3, Interruption.lease), RenderTransition.fail);
  });

  test("a render job's error fails the render; of the aborts only a shutdown moves it (requeue)", () => {
    assert.equal(afterRenderError(undefined), RenderTransition.fail);
    assert.equal(afterRenderError(AbortReason.shutdown), RenderTransition.requeue);
    for (const reason of [AbortReason.deleted, AbortReason.leaseLost, AbortReason.failed])
      assert.equal(afterRenderError(reason), undefined, reason);
  });

  test("a chunk's error: retried while it has attempts, else it fails with its render; a shutdown hands it back", () => {
    const on = (attempts: number, leased = false) => ({ leased, attempts, maxAttempts: 3 });
    assert.deepEqual(afterChunkError(undefined, on(1)), { chunk: ChunkTransition.retry });
    assert.deepEqual(afterChunkError(undefined, on(2)), { chunk: ChunkTransition.retry });
    assert.deepEqual(afterChunkError(undefined, on(3)), { chunk: ChunkTransition.fail, render: RenderTransition.fail });
    // The in-process queue gives the render back too (planned afresh at the next start); pg-boss the job only.
    assert.deepEqual(afterChunkError(AbortReason.shutdown, on(3)), {
      chunk: ChunkTransition.handBack,
      render: RenderTransition.requeue,
    });
    assert.deepEqual(afterChunkError(AbortReason.shutdown, on(1, true)), { chunk: ChunkTransition.handBack });
    for (const reason of [AbortReason.deleted, AbortReason.leaseLost, AbortReason.failed])
      assert.deepEqual(afterChunkError(reason, on(1)), {}, reason);
  });

  test("a chunk its dead holder kept: failed while rendering, its render's join taken over once done", () => {
    assert.deepEqual(afterDeadChunkHolder(ChunkStatus.rendering), {
      chunk: ChunkTransition.fail,
      render: RenderTransition.fail,
    });
    assert.deepEqual(afterDeadChunkHolder(ChunkStatus.done), { render: RenderTransition.join });
    assert.deepEqual(afterDeadChunkHolder(ChunkStatus.queued), {});
    assert.deepEqual(afterDeadChunkHolder(ChunkStatus.failed), {});
    assert.deepEqual(afterDeadChunkHolder(undefined), {});
  });

  test("a join's error fails the render; an aborted join leaves it", () => {
    assert.equal(afterJoinError(undefined), RenderTransition.fail);
    for (const reason of Object.values(AbortReason)) assert.equal(afterJoinError(reason), undefined, reason);
  });

  test('every decision names a transition of the tables', () => {
    const renderNames = new Set<string>(Object.keys(RENDER_TRANSITIONS));
    assert.deepEqual(new Set(Object.values(RenderTransition)), renderNames);
    assert.deepEqual(new Set(Object.values(ChunkTransition)), new Set(Object.keys(CHUNK_TRANSITIONS)));
  });
});

describe('the stores apply the tables', () => {
  let location: TestLocation;
  let stores: Stores;
  let accountId: string;
  before(async () => {
    location = await newTestLocation('fx-render-state-');
    stores = await openStores(location);
    accountId = (await stores.accounts.ensure('states', Date.now())).id;
  });
  after(async () => {
    await stores?.close();
    if (location) await removeTestLocation(location);
  });

  const FAILURE = { code: 'x', message: 'x' };
  const output = { width: 16, height: 9, frames: 1, duration: 0.1, start: 0 };
  const result = (attempt: number) => ({
    warnings: [],
    videoKey: 'v',
    thumbnailKey: 't',
    output,
    credits: 1,
    finishedAt: 1,
    attempt,
  });

  /** A new render brought to `state` through the store. */
  async function renderIn(state: RenderStatus): Promise<string> {
    const id = newId(IdPrefix.render);
    const request = RENDER_REQUEST;
    await stores.renders.create({
      id,
      accountId,
      credentialId: 'k',
      request,
      warnings: [],
      projectKey: 'p',
      createdAt: 1,
    });
    if (state === rendering || state === completed) await stores.renders.claim(id, 1);
    if (state === completed) await stores.renders.complete(id, result(1));
    if (state === failed) await stores.renders.fail(id, FAILURE, 1);
    assert.equal((await stores.renders.find(id))?.status, state);
    return id;
  }

  /** Each transition through its store method; the claim with `takeOver` also claims a queued render. */
  const APPLY: Partial<Record<RenderTransition, (id: string) => Promise<unknown>>> = {
    claim: (id) => stores.renders.claim(id, 1),
    take_over: (id) => stores.renders.claim(id, 1, true),
    complete: async (id) => stores.renders.complete(id, result((await stores.renders.find(id))!.attempts)),
    fail: (id) => stores.renders.fail(id, FAILURE, 1),
    requeue: (id) => stores.renders.requeue(id),
    resume: (id) => stores.renders.resume(id),
  };

  for (const [name, apply] of Object.entries(APPLY) as [RenderTransition, (id: string) => Promise<unknown>][])
    for (const from of RENDER_STATES)
      test(`render ${name} from ${from}`, async () => {
        const id = await renderIn(from);
        await apply(id);
        const expected =
          nextState(RENDER_TRANSITIONS[name], from) ??
          (name === RenderTransition.takeOver ? nextState(RENDER_TRANSITIONS.claim, from) : undefined) ??
          from;
        assert.equal((await stores.renders.find(id))?.status, expected);
      });

  test("render join (the render's stage → muxing): only while rendering", async () => {
    for (const from of RENDER_STATES) {
      // Its one chunk done while it rendered, then the render moved to `from` on the same attempt.
      const id = await renderIn(rendering);
      await stores.chunks.plan(id, 1, [{ from: 0, to: 1 }]);
      await stores.chunks.claim(id, 1, 0, 'w', false, 3);
      assert.equal(await stores.chunks.finish(id, 0, 1, 'k', {} as StoredChunkResult), true);
      if (from === queued) await stores.renders.resume(id);
      if (from === completed) await stores.renders.complete(id, result(1));
      if (from === failed) await stores.renders.fail(id, FAILURE, 1);
      assert.equal((await stores.renders.find(id))?.status, from);
      const joined = await stores.chunks.claimJoin(id, 1, false);
      assert.equal(joined, nextState(RENDER_TRANSITIONS.join, from) !== undefined, from);
    }
  });

  /** A chunk (index 0 of a render claimed once) brought to `state` through the store. */
  async function chunkIn(state: ChunkStatus): Promise<string> {
    const id = await renderIn(rendering);
    await stores.chunks.plan(id, 1, [{ from: 0, to: 1 }]);
    if (state !== ChunkStatus.queued) await stores.chunks.claim(id, 1, 0, 'w', false, 3);
    if (state === ChunkStatus.done) await stores.chunks.finish(id, 0, 1, 'k', {} as StoredChunkResult);
    if (state === ChunkStatus.failed) await stores.chunks.release(id, 0, 1, ChunkStatus.failed);
    assert.equal((await stores.chunks.list(id))[0]?.status, state);
    return id;
  }

  const attemptOf = async (id: string) => (await stores.chunks.list(id))[0]!.attempts;
  const CHUNK_APPLY: Record<ChunkTransition, (id: string) => Promise<unknown>> = {
    claim: (id) => stores.chunks.claim(id, 1, 0, 'w', false, 3),
    take_over: (id) => stores.chunks.claim(id, 1, 0, 'w', true, 3),
    finish: async (id) => stores.chunks.finish(id, 0, await attemptOf(id), 'k', {} as StoredChunkResult),
    retry: async (id) => stores.chunks.release(id, 0, await attemptOf(id), ChunkStatus.queued),
    hand_back: async (id) => stores.chunks.release(id, 0, await attemptOf(id), ChunkStatus.queued, true),
    fail: async (id) => stores.chunks.release(id, 0, await attemptOf(id), ChunkStatus.failed),
  };

  for (const [name, apply] of Object.entries(CHUNK_APPLY) as [ChunkTransition, (id: string) => Promise<unknown>][])
    for (const from of CHUNK_STATES)
      test(`chunk ${name} from ${from}`, async () => {
        const id = await chunkIn(from);
        await apply(id);
        const expected =
          nextState(CHUNK_TRANSITIONS[name], from) ??
          (name === ChunkTransition.takeOver ? nextState(CHUNK_TRANSITIONS.claim, from) : undefined) ??
          from;
        assert.equal((await stores.chunks.list(id))[0]?.status, expected);
      });
});

describe('docs/service.md draws the tables', () => {
  const page = readFileSync(new URL('../../../docs/service.md', import.meta.url), 'utf8');
  /** The edges of the mermaid state diagram whose comment names `table`, as `from --> to: label` lines. */
  function drawn(table: string): string[] {
    const block = [...page.matchAll(/```mermaid\n(stateDiagram-v2\n[\s\S]*?)```/g)]
      .map((match) => match[1]!)
      .find((text) => text.includes(`%% ${table} `));
    assert.ok(block, `docs/service.md has a stateDiagram-v2 block with "%% ${table} "`);
    return block
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.includes('-->'))
      .map((line) => line.replace(/^(\[\*\] --> \S+):.*$/, '$1'))
      .sort();
  }
  /** The edges a table says: the initial state, every transition from each of its states, the final states. */
  function edges<State extends string>(
    table: Readonly<Record<string, Transition<State>>>,
    initial: State,
    states: readonly State[],
  ): string[] {
    return [
      `[*] --> ${initial}`,
      ...Object.entries(table).flatMap(([name, { from, to }]) => from.map((state) => `${state} --> ${to}: ${name}`)),
      ...finalStates(table, states).map((state) => `${state} --> [*]`),
    ].sort();
  }

  test('the render state machine', () =>
    assert.deepEqual(drawn('RENDER_TRANSITIONS'), edges(RENDER_TRANSITIONS, RENDER_INITIAL, RENDER_STATES)));
  test('the chunk state machine', () =>
    assert.deepEqual(drawn('CHUNK_TRANSITIONS'), edges(CHUNK_TRANSITIONS, CHUNK_INITIAL, CHUNK_STATES)));
});
