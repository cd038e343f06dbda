import { RenderStatus } from '../../wire/constants.js';
import { AbortReason } from '../jobs/job-queue.js';

/**
 * A render's states, the transitions between them and what a job does next: the one place that decides a render's
 * (and a chunk's) next state. The stores apply a transition as one conditional `UPDATE … WHERE status IN (…)` whose
 * list is the transition's `from` here (`sqlFrom`); from any other state the store changes nothing and answers
 * false or undefined, so a deleted, finished or taken-over render is never moved again. A deleted render is hidden
 * (`deleted_at`), not a state: no transition applies to it. The job files (jobs/render-job.ts, chunk-job.ts,
 * join-job.ts, crash-recovery.ts) ask the functions below what to do and carry it out.
 *
 * docs/service.md draws both machines; test/service/renders/render-state.node.test.ts keeps the drawing and these
 * tables equal, and checks the stores against them.
 */

/** One transition: the states it moves from and the one it moves to. */
export interface Transition<State extends string> {
  readonly from: readonly State[];
  readonly to: State;
}

/** Transitions of a render record (`renders.status`), by name. */
export const RenderTransition = {
  /** A job starts a queued render, counting the attempt (`claim`). */
  claim: 'claim',
  /** A leased job's new holder takes over a dead worker's render, one more attempt (`claim(…, takeOver)`). */
  takeOver: 'take_over',
  /** The worker whose chunk completed the set of a chunked render joins it: stage → `muxing` (`claimJoin`). */
  join: 'join',
  /** Outputs stored, on the attempt that made them (`complete`). */
  complete: 'complete',
  /** The render's error, or `render_interrupted` once it was started `maxAttempts` times (`fail`). */
  fail: 'fail',
  /** A shutdown gives the render back without counting the attempt (`requeue`). */
  requeue: 'requeue',
  /** Crash recovery queues an interrupted render again, keeping the attempt count (`resume`). */
  resume: 'resume',
} as const;
export type RenderTransition = (typeof RenderTransition)[keyof typeof RenderTransition];

/** A render is stored `queued` (submit, `create`); it never leaves a state without transitions out of it. */
export const RENDER_INITIAL: RenderStatus = RenderStatus.queued;

export const RENDER_TRANSITIONS: Readonly<Record<RenderTransition, Transition<RenderStatus>>> = {
  [RenderTransition.claim]: { from: [RenderStatus.queued], to: RenderStatus.rendering },
  [RenderTransition.takeOver]: { from: [RenderStatus.rendering], to: RenderStatus.rendering },
  [RenderTransition.join]: { from: [RenderStatus.rendering], to: RenderStatus.rendering },
  [RenderTransition.complete]: { from: [RenderStatus.rendering], to: RenderStatus.completed },
  [RenderTransition.fail]: { from: [RenderStatus.queued, RenderStatus.rendering], to: RenderStatus.failed },
  [RenderTransition.requeue]: { from: [RenderStatus.rendering], to: RenderStatus.queued },
  [RenderTransition.resume]: { from: [RenderStatus.rendering], to: RenderStatus.queued },
};

/** States of a chunk of a chunked render (`render_chunks.status`). */
export const ChunkStatus = {
  queued: 'queued',
  rendering: 'rendering',
  done: 'done',
  failed: 'failed',
} as const;
export type ChunkStatus = (typeof ChunkStatus)[keyof typeof ChunkStatus];

/** Transitions of a chunk, by name; each also needs its render live, `rendering` and on the attempt that planned it. */
export const ChunkTransition = {
  /** A worker starts a queued chunk, counting the chunk's attempt and naming itself. */
  claim: 'claim',
  /** A leased job's new holder takes over a dead worker's chunk while it has attempts left. */
  takeOver: 'take_over',
  /** The chunk file is stored, on the attempt that made it. */
  finish: 'finish',
  /** A failed attempt with attempts left: queued again as a job of its own. */
  retry: 'retry',
  /** A shutdown gives the chunk back without counting the attempt. */
  handBack: 'hand_back',
  /** Out of attempts (or its dead holder used the last one): the render fails with it. */
  fail: 'fail',
} as const;
export type ChunkTransition = (typeof ChunkTransition)[keyof typeof ChunkTransition];

/** Chunks are stored `queued` when a render is planned (`plan`, replacing an earlier attempt's). */
export const CHUNK_INITIAL: ChunkStatus = ChunkStatus.queued;

export const CHUNK_TRANSITIONS: Readonly<Record<ChunkTransition, Transition<ChunkStatus>>> = {
  [ChunkTransition.claim]: { from: [ChunkStatus.queued], to: ChunkStatus.rendering },
  [ChunkTransition.takeOver]: { from: [ChunkStatus.rendering], to: ChunkStatus.rendering },
  [ChunkTransition.finish]: { from: [ChunkStatus.rendering], to: ChunkStatus.done },
  [ChunkTransition.retry]: { from: [ChunkStatus.rendering], to: ChunkStatus.queued },
  [ChunkTransition.handBack]: { from: [ChunkStatus.rendering], to: ChunkStatus.queued },
  [ChunkTransition.fail]: { from: [ChunkStatus.rendering], to: ChunkStatus.failed },
};

/** The state a transition moves `from` to, or undefined when it does not apply there (the store changes nothing). */
export function nextState<State extends string>(transition: Transition<State>, from: State): State | undefined {
  return transition.from.includes(from) ? transition.to : undefined;
}

/** The states a transition moves from, as an SQL list for `status IN (…)` (both databases). */
export const sqlFrom = (...transitions: Transition<string>[]): string =>
  [...new Set(transitions.flatMap((transition) => transition.from))].map((state) => `'${state}'`).join(', ');

/** The states of a machine that no transition leaves: a render's or chunk's last. */
export function finalStates<State extends string>(
  transitions: Readonly<Record<string, Transition<State>>>,
  all: readonly State[],
): State[] {
  const left = new Set(Object.values(transitions).flatMap((transition) => transition.from));
  return all.filter((state) => !left.has(state));
}

/** What a job does next: a render transition, a chunk transition, both (chunk first), or nothing. */
export interface NextStep {
  readonly render?: RenderTransition;
  readonly chunk?: ChunkTransition;
}

/** How a render left `rendering` by a worker that is gone was found. */
export const Interruption = {
  /** The in-process queue at start: the process that ran it crashed (crash-recovery.ts). */
  restart: 'restart',
  /** A leased job (pg-boss) brought back after its holder stopped renewing it (render-job.ts). */
  lease: 'lease',
} as const;
export type Interruption = (typeof Interruption)[keyof typeof Interruption];

/**
 * A render left `rendering` by a worker that is gone: failed with `render_interrupted` once it was started
 * `maxAttempts` times (a composition that kills its worker cannot loop), else queued again with its attempt kept
 * (at a restart) or taken over by the leased job, one more attempt.
 */
export function afterInterruption(attempts: number, maxAttempts: number, found: Interruption): RenderTransition {
  if (attempts >= maxAttempts) return RenderTransition.fail;
  return found === Interruption.lease ? RenderTransition.takeOver : RenderTransition.resume;
}

/**
 * A render job (a whole render) that did not complete: with its signal aborted, a shutdown gives the render back
 * (`requeue`) and any other reason leaves it (deleted: gone; lease lost: another worker's now); else it fails.
 */
export function afterRenderError(aborted: AbortReason | undefined): RenderTransition | undefined {
  if (aborted === undefined) return RenderTransition.fail;
  return aborted === AbortReason.shutdown ? RenderTransition.requeue : undefined;
}

/**
 * A chunk attempt that did not finish. Aborted by a shutdown: the chunk is handed back, and with it the render on
 * the in-process queue, which plans it afresh at the next start (a leased job is handed back to pg-boss, and its
 * next holder goes on with the chunk); aborted for another reason: nothing of this worker's to keep. Failed: a
 * retry while the chunk has attempts left below `maxAttempts`, else the chunk and its render fail.
 */
export function afterChunkError(
  aborted: AbortReason | undefined,
  { leased, attempts, maxAttempts }: { leased: boolean; attempts: number; maxAttempts: number },
): NextStep {
  if (aborted === AbortReason.shutdown)
    return leased
      ? { chunk: ChunkTransition.handBack }
      : { chunk: ChunkTransition.handBack, render: RenderTransition.requeue };
  if (aborted !== undefined) return {};
  if (attempts < maxAttempts) return { chunk: ChunkTransition.retry };
  return { chunk: ChunkTransition.fail, render: RenderTransition.fail };
}

/**
 * A leased chunk job whose chunk could not be taken over (`claim` refused it): its dead holder was rendering it with
 * no attempt left (the chunk fails, and the render with `render_interrupted`), or had rendered it and was joining or
 * about to (this job takes the join over); otherwise another holder has it.
 */
export function afterDeadChunkHolder(status: ChunkStatus | undefined): NextStep {
  if (status === ChunkStatus.rendering) return { chunk: ChunkTransition.fail, render: RenderTransition.fail };
  if (status === ChunkStatus.done) return { render: RenderTransition.join };
  return {};
}

/** A join that did not complete: it fails the render, unless aborted (a shutdown leaves it to the job's next holder). */
export function afterJoinError(aborted: AbortReason | undefined): RenderTransition | undefined {
  return aborted === undefined ? RenderTransition.fail : undefined;
}
