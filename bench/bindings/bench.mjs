// Benchmark: how long a full variables update takes in a real page — resolve 100 declared values against
// overrides, apply them to 200 bindings — with and without the style recalc and layout it causes.

export const name = 'bindings';
export const description =
  'resolveVariables + applyBindings: 100 variables, 200 bindings, all values changing each update';

const WARMUP = 50;
const SAMPLES = 300;
const RUNTIME_PATH = '/__bench/runtime.js';
const PAGE_MODULE_PATH = '/bench/bindings/page.mjs';

export async function run(context) {
  const runtimeUrl = await context.serveBundle('src/runtime/index.ts', RUNTIME_PATH);
  const pageModule = await context.url(PAGE_MODULE_PATH);
  const page = await context.newPage({ viewport: { width: 1920, height: 1080 } });
  const measured = await page.evaluate(async (input) => (await import(input.pageModule)).measureBindings(input), {
    pageModule,
    runtimeUrl,
    warmup: WARMUP,
    samples: SAMPLES,
  });
  if (!measured.details.crossOriginIsolated) {
    context.log(`page is not cross-origin isolated: timer resolution is ${measured.details.timerResolutionMs} ms`);
  }
  return {
    metrics: [
      { name: 'resolve', unit: 'ms', samples: measured.times.resolve },
      {
        name: 'resolve+apply',
        unit: 'ms',
        samples: measured.times.resolveApply,
        budget: { statistic: 'median', max: 1 },
      },
      { name: 'resolve+apply+style', unit: 'ms', samples: measured.times.resolveApplyStyle },
    ],
    details: measured.details,
  };
}
