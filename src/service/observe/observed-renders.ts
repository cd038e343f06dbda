import { RenderStatus } from '../../wire/constants.js';
import type { RenderStore } from '../renders/render-store.js';
import { RENDER_TRANSITIONS, RenderTransition } from '../renders/render-state.js';
import type { RenderRow } from '../renders/render-types.js';
import type { RenderChange, ServiceEvents } from './events.js';

/** When this process last saw a render change state; forgotten once it is final. Bounded for long-lived processes. */
const MAX_REMEMBERED = 10_000;

/**
 * The render store as the service's jobs use it, saying every transition that applied (`renderStateChanged`): the
 * stores apply render-state.ts's decisions, so this is where they are known to have happened. A transition that
 * did not apply (the render was deleted, finished or taken over) says nothing. The store's methods are unchanged;
 * the render is read before a transition whose state it needs (one `SELECT`).
 *
 * The time in the previous state is measured from the change this process saw last, else from the record:
 * `startedAt` (its first start) for a render `rendering`, `createdAt` for one `queued`. A render joined or failed
 * by another process than the one that claimed it is thus measured from its first start.
 */
export function observeRenders(store: RenderStore, events: ServiceEvents, now: () => number): RenderStore {
  const since = new Map<string, number>();
  const remember = (id: string, at: number) => {
    since.delete(id);
    since.set(id, at);
    if (since.size > MAX_REMEMBERED) since.delete(since.keys().next().value!);
  };
  const entered = (render: RenderRow): number =>
    since.get(render.id) ??
    (render.status === RenderStatus.rendering ? (render.startedAt ?? render.createdAt) : render.createdAt);
  const said = (
    before: RenderRow,
    change: RenderChange,
    to: RenderStatus,
    at: number,
    extra: { attempt?: number; failureCode?: string; frames?: number } = {},
  ) => {
    const ms = Math.max(0, at - entered(before));
    if (to === RenderStatus.completed || to === RenderStatus.failed) since.delete(before.id);
    else remember(before.id, at);
    const { frames } = extra;
    events.emit('renderStateChanged', {
      renderId: before.id,
      accountId: before.accountId,
      from: before.status,
      to,
      change,
      attempt: extra.attempt ?? before.attempts,
      ms,
      ...(extra.failureCode === undefined ? {} : { failureCode: extra.failureCode }),
      ...(frames === undefined ? {} : { frames, fps: ms > 0 ? frames / (ms / 1000) : 0 }),
    });
  };

  const observed: Partial<RenderStore> = {
    async claim(id, at, takeOver) {
      const before = takeOver ? await store.find(id) : undefined;
      const row = await store.claim(id, at, takeOver);
      if (row) {
        const from = before ?? { ...row, status: RenderStatus.queued };
        const change = from.status === RenderStatus.rendering ? RenderTransition.takeOver : RenderTransition.claim;
        said(from, change, RENDER_TRANSITIONS[change].to, now(), { attempt: row.attempts });
      }
      return row;
    },
    async complete(id, result, webhook) {
      const before = await store.find(id);
      const applied = await store.complete(id, result, webhook);
      if (applied && before)
        said(before, RenderTransition.complete, RENDER_TRANSITIONS.complete.to, result.finishedAt, {
          frames: result.output.frames,
        });
      return applied;
    },
    async fail(id, failure, at, webhook, attempt) {
      const before = await store.find(id);
      const applied = await store.fail(id, failure, at, webhook, attempt);
      if (applied && before)
        said(before, RenderTransition.fail, RENDER_TRANSITIONS.fail.to, at, { failureCode: failure.code });
      return applied;
    },
    async requeue(id) {
      await backToQueue(id, RenderTransition.requeue, () => store.requeue(id));
    },
    async resume(id) {
      await backToQueue(id, RenderTransition.resume, () => store.resume(id));
    },
  };
  /** `requeue` and `resume` answer nothing: the record read before and after says whether they applied. */
  const backToQueue = async (id: string, change: RenderChange, apply: () => Promise<void>) => {
    const before = await store.find(id);
    await apply();
    if (before?.status !== RenderStatus.rendering) return;
    const after = await store.find(id);
    if (after?.status === RenderStatus.queued)
      said(before, change, RenderStatus.queued, now(), { attempt: after.attempts });
  };

  // Every other method (and any a store gains) is the store's own.
  return new Proxy(store, {
    get(target, name, receiver) {
      if (typeof name === 'string' && Object.hasOwn(observed, name)) return observed[name as keyof RenderStore];
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Says a render's submit: `queued` from no state. */
export function observeSubmit(events: ServiceEvents, render: RenderRow): void {
  events.emit('renderStateChanged', {
    renderId: render.id,
    accountId: render.accountId,
    from: null,
    to: render.status,
    change: 'submit',
    attempt: render.attempts,
    ms: 0,
  });
}
