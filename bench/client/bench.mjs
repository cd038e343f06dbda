// Benchmark: zipProject in Chromium on a 100 MB project that is mostly media (what "render this" uploads): zip
// throughput, and the longest main-thread task while zipping (long-task observer). Issue 10, item 7 (the upload and
// click-to-frame figures of that item belong next to these).

export const name = 'client';
export const description = 'zipProject in Chromium: 100 MB project (95 MB media stored, 5 MB text deflated) — MB/s and longest main-thread task';

const WARMUP = 1;
const SAMPLES = 5;
const ZIP_PATH = '/__bench/client-zip.js';
const PAGE_MODULE_PATH = '/bench/client/page.mjs';

export async function run(context) {
  const zipUrl = await context.serveBundle('src/client/zip/index.ts', ZIP_PATH);
  const pageModule = await context.url(PAGE_MODULE_PATH);
  const page = await context.newPage({ viewport: { width: 1280, height: 720 } });
  const measured = await page.evaluate(
    async (input) => (await import(input.pageModule)).measureZip(input),
    { pageModule, zipUrl, warmup: WARMUP, samples: SAMPLES },
  );
  return {
    metrics: [
      { name: 'zip throughput', unit: 'MB/s', samples: measured.throughput, budget: { statistic: 'median', min: 200 } },
      { name: 'zip time', unit: 'ms', samples: measured.times },
      { name: 'longest main-thread task', unit: 'ms', samples: measured.longestTasks, budget: { statistic: 'p95', max: 50 } },
    ],
    details: measured.details,
  };
}
