import type { RenderStore } from '../renders/render-store.js';
import type { NewRender, RenderRow } from '../renders/render-types.js';
import { AbortReason, type Job, type JobQueue } from './job-queue.js';

/**
 * In-process FIFO queue with a concurrency limit (the embedded default). Its jobs live in memory, so they cannot
 * share SQLite's transaction and need not: a process that dies between storing a render and enqueueing it loses
 * the whole queue anyway, and the service enqueues every `queued` render again when it starts.
 */
export class LocalJobQueue implements JobQueue {
  private readonly pending: string[] = [];
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private handler: ((job: Job) => Promise<void>) | undefined;
  private stopped = false;

  constructor(
    private readonly renders: RenderStore,
    private readonly concurrency: number,
    private readonly onError: (renderId: string, error: unknown) => void = () => {},
  ) {}

  start(handler: (job: Job) => Promise<void>): void {
    this.handler = handler;
    this.pump();
  }

  async submit(render: NewRender): Promise<RenderRow> {
    await this.renders.create(render);
    // Read before enqueueing: the answer shows the render as submitted (`queued`), whatever the job does next.
    const created = (await this.renders.find(render.id))!;
    await this.enqueue(render.id);
    return created;
  }

  async enqueue(renderId: string): Promise<void> {
    if (this.stopped || this.running.has(renderId) || this.pending.includes(renderId)) return;
    this.pending.push(renderId);
    this.pump();
  }

  cancel(renderId: string, reason: AbortReason): void {
    const index = this.pending.indexOf(renderId);
    if (index >= 0) this.pending.splice(index, 1);
    this.running.get(renderId)?.controller.abort(reason);
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
      const renderId = this.pending.shift()!;
      const controller = new AbortController();
      const done = handler({ renderId, signal: controller.signal })
        .catch((error) => this.onError(renderId, error))
        .finally(() => {
          this.running.delete(renderId);
          this.pump();
        });
      this.running.set(renderId, { controller, done });
    }
  }
}
