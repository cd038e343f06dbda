/**
 * Test tool: how long the main thread stalled while some work ran, measured the way each browser allows: long-task
 * entries in Chromium, the longest gap between ticks of a 10 ms timer where there are none (Firefox).
 */

/** The longest main-thread task (ms) while `work` runs; 0 when none passed 50 ms. */
export async function longestTask(work: () => unknown): Promise<number> {
  if (!PerformanceObserver.supportedEntryTypes.includes('longtask')) return longestTimerGap(work);
  const durations: number[] = [];
  const observer = new PerformanceObserver((list) =>
    durations.push(...list.getEntries().map((entry) => entry.duration)),
  );
  observer.observe({ type: 'longtask' });
  await work();
  // Long tasks are reported after they end: give the report a moment.
  await new Promise((resolve) => setTimeout(resolve, 100));
  durations.push(...observer.takeRecords().map((entry) => entry.duration));
  observer.disconnect();
  return Math.max(0, ...durations);
}

/**
 * Where there are no long-task entries (Firefox): the longest wait (ms) between ticks of a 10 ms timer while `work`
 * runs, which a task blocking the main thread stretches by its own length.
 */
async function longestTimerGap(work: () => unknown): Promise<number> {
  let last = performance.now();
  let longest = 0;
  let timer = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = window.setTimeout(tick, 10);
  };
  timer = window.setTimeout(tick, 10);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    clearTimeout(timer);
  }
  return longest;
}

/**
 * How long the engine itself stalls the page to post `message` over a MessageChannel and receive it: the part of
 * a hostile frame's report no host code can avoid where the frame shares the page's thread (WebKitGTK runs an
 * opaque-origin frame in the page's process, and JavaScriptCore clones a sparse array hole by hole).
 */
export async function cloneStall(message: unknown): Promise<number> {
  const { port1, port2 } = new MessageChannel();
  try {
    return await longestTask(async () => {
      const received = new Promise((resolve) => (port2.onmessage = resolve));
      port1.postMessage(message);
      await received;
    });
  } finally {
    port1.close();
    port2.close();
  }
}
