/** Runs `task` while holding the lock `name`: no other holder of `name`, in this tab or another, runs meanwhile. */
export type LockRunner = <T>(name: string, task: () => Promise<T>) => Promise<T>;

/** The Web Locks API: exclusive across every tab and worker of the origin. */
export const webLock: LockRunner = (name, task) => navigator.locks.request(name, task);

/** No lock beyond the caller's own single flight: one process, one session object (Node). */
export const noLock: LockRunner = (_name, task) => task();

/** How long a claim waits for a competing claim or a holder's answer before it holds. */
const CLAIM_WINDOW_MS = 50;
/** A holder that never says "released" (its tab was closed mid-refresh) stops blocking after this. */
const HOLDER_TIMEOUT_MS = 10_000;

type LockMessage = { type: 'claim' | 'held' | 'released'; id: string };

/**
 * A lock over BroadcastChannel, for browsers without Web Locks: a claimant announces itself and holds the lock if,
 * within a short window, no holder answered and no claimant with a smaller id competed; otherwise it waits for a
 * release (or the holder timeout) and claims again. A holder answers every claim while it holds.
 */
export const broadcastChannelLock: LockRunner = async (name, task) => {
  const channel = new BroadcastChannel(`fx-lock:${name}`);
  const id = crypto.randomUUID();
  let holding = false;
  let claiming = false;
  let lost = false;
  let releases = 0;
  let onRelease: (() => void) | undefined;
  channel.onmessage = ({ data }: MessageEvent<LockMessage>) => {
    if (data.type === 'claim' && holding) channel.postMessage({ type: 'held', id } satisfies LockMessage);
    else if (data.type === 'claim' && claiming && data.id < id) lost = true;
    // A channel hears only what is posted after it opened: say it again so a later claimant sees the smaller id.
    else if (data.type === 'claim' && claiming) channel.postMessage({ type: 'claim', id } satisfies LockMessage);
    else if (data.type === 'held' && claiming) lost = true;
    else if (data.type === 'released') {
      releases += 1;
      onRelease?.();
    }
  };
  try {
    for (;;) {
      const seen = releases;
      claiming = true;
      lost = false;
      channel.postMessage({ type: 'claim', id } satisfies LockMessage);
      await new Promise((resolve) => setTimeout(resolve, CLAIM_WINDOW_MS));
      claiming = false;
      if (!lost) break;
      if (releases !== seen) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, HOLDER_TIMEOUT_MS);
        onRelease = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      onRelease = undefined;
    }
    holding = true;
    channel.postMessage({ type: 'held', id } satisfies LockMessage);
    return await task();
  } finally {
    if (holding) channel.postMessage({ type: 'released', id } satisfies LockMessage);
    channel.close();
  }
};

/** Web Locks where the browser has them, else BroadcastChannel in a browser, else none (Node). */
export function defaultLock(): LockRunner {
  if (typeof navigator !== 'undefined' && navigator.locks) return webLock;
  if (typeof window !== 'undefined' && typeof BroadcastChannel === 'function') return broadcastChannelLock;
  return noLock;
}
