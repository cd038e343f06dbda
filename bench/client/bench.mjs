// Benchmark: "render this" from a page, in Chromium (issue 10, item 7). zipProject on a 100 MB project that is
// mostly media (throughput, and the longest main-thread task while zipping); uploading that zip to a real reference
// service started here (FxClient.uploadAsset, MB/s); and the time from a click on `<fx-render-button>` to the first
// rendered frame and to `rendered`, for the demo composition on the same service with the real renderer.
import { median } from '../lib/stats.mjs';
import { startBenchService } from './service.mjs';

export const name = 'client';
export const description =
  'zip (100 MB, mostly media) and upload MB/s in Chromium; <fx-render-button> click → first frame / rendered (demo composition, real renderer)';

const ZIP = { warmup: 1, samples: 5 };
const UPLOAD = { warmup: 1, samples: 5 };
const RENDERS = 3;
/** The button's `poll-interval` here (its default is 10 s, which would hide everything below it). */
const POLL_INTERVAL_MS = 250;
const ZIP_PATH = '/__bench/client-zip.js';
const CLIENT_PATH = '/__bench/client.js';
const SDK_PATH = '/__bench/fx-sdk.js';
const RUNTIME_PATH = '/dist/fx-runtime.js';
const COMPOSITION_PATH = '/demo/compositions/launch/index.html';
const STAGES = ['zipping', 'uploading', 'queued', 'rendering', 'first frame', 'downloading'];

export async function run(context) {
  const zip = await measureZip(context);
  const service = await startBenchService({ log: context.log });
  try {
    const upload = await measureUpload(context, service);
    const clickToFrame = await measureClickToFrame(context, service);
    return {
      metrics: [...zip.metrics, ...upload.metrics, ...clickToFrame.metrics],
      details: { zip: zip.details, upload: upload.details, clickToFrame: clickToFrame.details },
    };
  } finally {
    await service.close();
  }
}

async function measureZip(context) {
  const zipUrl = await context.serveBundle('src/client/zip/index.ts', ZIP_PATH);
  const pageModule = await context.url('/bench/client/page.mjs');
  const page = await context.newPage();
  const measured = await page.evaluate(async (input) => (await import(input.pageModule)).measureZip(input), {
    pageModule,
    zipUrl,
    ...ZIP,
  });
  await page.close();
  return {
    metrics: [
      { name: 'zip throughput', unit: 'MB/s', samples: measured.throughput, budget: { statistic: 'median', min: 200 } },
      { name: 'zip time', unit: 'ms', samples: measured.times },
      {
        name: 'longest main-thread task',
        unit: 'ms',
        samples: measured.longestTasks,
        budget: { statistic: 'p95', max: 50 },
      },
    ],
    details: measured.details,
  };
}

async function measureUpload(context, service) {
  const clientUrl = await context.serveBundle('src/client/index.ts', CLIENT_PATH);
  const pageModule = await context.url('/bench/client/upload-page.mjs');
  const page = await context.newPage();
  const measured = await page.evaluate(async (input) => (await import(input.pageModule)).measureUpload(input), {
    pageModule,
    clientUrl,
    baseUrl: service.url,
    apiKey: service.key,
    ...UPLOAD,
  });
  await page.close();
  return {
    metrics: [
      { name: 'upload throughput', unit: 'MB/s', samples: measured.throughput },
      { name: 'upload time', unit: 'ms', samples: measured.times },
    ],
    details: measured.details,
  };
}

async function measureClickToFrame(context, service) {
  const sdkUrl = await context.serveBundle('src/sdk.ts', SDK_PATH);
  const pageModule = await context.url('/bench/client/render-page.mjs');
  const page = await context.newPage();
  const firstRender = service.firstFrameAt.length;
  const measured = await page.evaluate(async (input) => (await import(input.pageModule)).measureClickToFrame(input), {
    pageModule,
    sdkUrl,
    runtimeUrl: await context.url(RUNTIME_PATH),
    compositionUrl: await context.url(COMPOSITION_PATH),
    serviceUrl: service.url,
    apiKey: service.key,
    pollInterval: POLL_INTERVAL_MS,
    samples: RENDERS,
  });
  await page.close();
  const { runs } = measured;
  // The renderer's own first frame (no polling), on the same wall clock as the page's click.
  const serviceFirstFrame = runs.map((entry, index) => service.firstFrameAt[firstRender + index] - entry.clickEpoch);
  if (serviceFirstFrame.some((value) => !Number.isFinite(value)))
    throw new Error('a render reported no frame to the service');
  const reported = (stage) => runs.map((entry) => entry.stages[stage]);
  for (const entry of runs)
    context.log(
      `render ${entry.renderId}: first frame ${Math.round(entry.stages['first frame'])} ms, rendered ${Math.round(entry.renderedMs)} ms`,
    );
  // How long each stage lasted: from its first report to the next stage's first report.
  const stageTimes = STAGES.filter((stage) => stage !== 'first frame').map((stage, index, order) => {
    const next = order[index + 1];
    return {
      stage,
      samples: runs.map((entry) => (next ? entry.stages[next] : entry.renderedMs) - entry.stages[stage]),
    };
  });
  return {
    metrics: [
      { name: 'click→first frame (button)', unit: 'ms', samples: reported('first frame') },
      { name: 'click→first frame (service)', unit: 'ms', samples: serviceFirstFrame },
      { name: 'click→rendered', unit: 'ms', samples: runs.map((entry) => entry.renderedMs) },
      ...stageTimes.map(({ stage, samples }) => ({ name: `stage ${stage}`, unit: 'ms', samples })),
    ],
    details: {
      ...measured.details,
      pollIntervalMs: POLL_INTERVAL_MS,
      output: runs[0]?.output,
      medianStageStartMs: Object.fromEntries(STAGES.map((stage) => [stage, median(reported(stage))])),
    },
  };
}
