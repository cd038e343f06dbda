import type { RenderStore } from '../renders/render-store.js';
import type { NewRender, RenderRow } from '../renders/render-types.js';
import { AbortReason, jobKey, type ChunkJob, type Job, type JobPayload, type JobQueue } from './job-queue.js';

/**
 * In-process FIFO queue with a concurrency limit (the embedded default). Its jobs live in memory, so they cannot
 * share SQLite's transaction and need not: a process that dies between storing a render and enqueueing it loses
 * the whole queue anyway, and the service enqueues every `queued` render again when it starts.
 */
export class LocalJobQueue implements JobQueue {
  private readonly pending: JobPayload[] = [];
  private readonly running = new Map<string, { job: JobPayload; controller: AbortController; done: Promise<void> }>();
  private handler: ((job: Job) => Promise<void>) | undefined;
  private stopped = false;

  constructor(
    private readonly renders: RenderStore,
    private readonly concurrency: number,
    private readonly onError: (renderId: string, error: unknown) => void = () => {},
    /** Told of each submitted render once it is stored, before its job can start. */
    private readonly onSubmitted: (render: RenderRow) => void = () => {},
  ) {}

  start(handler: (job: Job) => Promise<void>): void {
    this.handler = handler;
    this.pump();
  }

  async submit(render: NewRender): Promise<RenderRow> {
    await this.renders.create(render);
    // Read before enqueueing: the answer shows the render as submitted (`queued`), whatever the job does next.
    const created = (await this.renders.find(render.id))!;
    this.onSubmitted(created);
    await this.enqueue(render.id);
    return created;
  }

  async enqueue(renderId: string, chunk?: ChunkJob): Promise<void> {
    const job: JobPayload = chunk ? { renderId, chunk } : { renderId };
    const key = jobKey(job);
    if (this.stopped || this.running.has(key) || this.pending.some((other) => jobKey(other) === key)) return;
    this.pending.push(job);
    this.pump();
  }

  cancel(renderId: string, reason: AbortReason): void {
    for (let index = this.pending.length - 1; index >= 0; index--)
      if (this.pending[index]!.renderId === renderId) this.pending.splice(index, 1);
    for (const { job, controller } of this.running.values()) if (job.renderId === renderId) controller.abort(reason);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.length = 0;
    for (const { controller } of this.running.values()) controller.abort(AbortReason.shutdown);
    await Promise.all([...this.running.values()].map(({ done }) => done));
  }

  private pump(): void {
    const handler = this.handler;
    while (handler && !this.stopped && this.running.size < this.concurrency && this.pending.length > 0) {
      const job = this.pending.shift()!;
      const key = jobKey(job);
      const controller = new AbortController();
      const done = handler({ ...job, signal: controller.signal })
        .catch((error) => this.onError(job.renderId, error))
        .finally(() => {
          this.running.delete(key);
          this.pump();
        });
      this.running.set(key, { job, controller, done });
    }
  }
}
