import { CaptureWorker, type WorkerSettings } from './capture-worker.js';

/**
 * The capture workers of one render, including those still starting, so that `closeAll()` never misses a browser
 * that finished launching while the render was failing.
 */
export class WorkerPool {
  #workers: CaptureWorker[] = [];
  #launching = new Set<Promise<unknown>>();

  /** Starts a worker; it belongs to the pool as soon as its browser is up. */
  launch(settings: WorkerSettings): Promise<CaptureWorker> {
    const launching = CaptureWorker.start(settings).then((worker) => {
      this.#workers.push(worker);
      return worker;
    });
    const tracked = launching.catch(() => undefined).finally(() => this.#launching.delete(tracked));
    this.#launching.add(tracked);
    return launching;
  }

  /** Closes one worker and forgets it. */
  async close(worker: CaptureWorker): Promise<void> {
    this.#workers = this.#workers.filter((candidate) => candidate !== worker);
    await worker.close();
  }

  /** Waits for launches in flight, then closes every worker. */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#launching]);
    await Promise.all(this.#workers.splice(0).map((worker) => worker.close()));
  }
}
