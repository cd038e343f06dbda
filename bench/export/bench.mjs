// Benchmark: export in the browser (issue 33 §5) on the render benchmark's reference composition — frames per
// second of `el.exportVideo()` at 720p and 1080p with each rasteriser, beside the server renderer's fps on the same
// composition in the same run; the host page's longest main-thread task while exporting (Long Tasks API); and the
// page's peak JS heap over a 60 s 1080p export (HTML-in-Canvas, else foreignObject). Budget: 1080p export with
// HTML-in-Canvas ≥ 0.5× the server renderer's fps.
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { chromium } from 'playwright-core';
import { median } from '../lib/stats.mjs';
import { referenceComposition } from '../render/fixture.mjs';

export const name = 'export';
export const description =
  'in-browser export fps per rasteriser (720p, 1080p) vs the server renderer; longest task; memory';

const FPS = 30;
const DURATION = 3;
const LONG_DURATION = 60;
const RUNS = 2;
const SIZES = { '720p': { width: 1280, height: 720 }, '1080p': { width: 1920, height: 1080 } };
const RASTERISERS = {
  'foreign-object': [],
  'html-in-canvas': ['--enable-blink-features=CanvasDrawElement'],
};
const PLAYER = 'fx-player.iife.js';
/** What the player loads from beside itself on the first export (src/export/encoder-file.ts). */
const PLAYER_FILES = [PLAYER, 'fx-export-encoder.js'];
const BUDGET_RATIO = 0.5;

/** Exports the composition served at `entry` in a page of `browser`; fps, longest task and peak heap. */
async function timedExport(browser, server, rasteriser, options = {}) {
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  try {
    const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
      <script src="${server.url(PLAYER)}"></script></head>
      <body><fx-composition src="${server.url('index.html')}" style="display:block;width:640px"></fx-composition></body></html>`;
    await page.goto(server.addDocument(`bench-export-${Math.random()}`, html));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    let peakHeap = 0;
    const sampling = setInterval(async () => {
      const { metrics } = await cdp.send('Performance.getMetrics').catch(() => ({ metrics: [] }));
      const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
      peakHeap = Math.max(peakHeap, heap);
    }, 250);
    try {
      return {
        ...(await page.evaluate(
          async ({ rasteriser, fps }) => {
            const element = document.querySelector('fx-composition');
            if (!element.ready)
              await new Promise((resolve) => element.addEventListener('ready', resolve, { once: true }));
            let longest = 0;
            // Whose task it was: the page's own ('self') or a frame's in the page's process (its attribution).
            const longestBySource = {};
            const observer = new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) {
                longest = Math.max(longest, entry.duration);
                longestBySource[entry.name] = Math.max(longestBySource[entry.name] ?? 0, entry.duration);
              }
            });
            observer.observe({ type: 'longtask', buffered: false });
            const started = performance.now();
            const result = await element.exportVideo({ format: 'mp4', fps, quality: 'standard', rasteriser });
            const ms = performance.now() - started;
            observer.disconnect();
            return {
              ms,
              frames: result.frames,
              longestTaskMs: longest,
              longestBySource,
              rasteriser: result.rasteriser,
              encodedIn: result.encodedIn,
            };
          },
          { rasteriser, fps: FPS },
        )),
        peakHeapMiB: peakHeap / 2 ** 20,
      };
    } finally {
      clearInterval(sampling);
    }
  } finally {
    await page.close();
  }
}

export async function run(context) {
  const { render } = await tsImport('../../src/render/render.ts', import.meta.url);
  const { bundleDir } = await tsImport('../../src/render/bundles.ts', import.meta.url);
  const { BrowserExecutable, COMMON_FLAGS } = await tsImport('../../src/render/chromium.ts', import.meta.url);
  const { startProjectServer } = await tsImport('../../src/render/project-server.ts', import.meta.url);
  const scratch = await mkdtemp(join(tmpdir(), 'fx-bench-export-'));
  const samples = {};
  const details = {
    fps: FPS,
    seconds: DURATION,
    ratios: {},
    rasteriserUsed: {},
    encodedIn: {},
    longestTaskBySource: {},
  };
  /** The longest task of each source (the page's own, a frame's) over every run of `key`. */
  const addLongestBySource = (key, bySource) => {
    const kept = (details.longestTaskBySource[key] ??= {});
    for (const [source, ms] of Object.entries(bySource)) kept[source] = Math.round(Math.max(kept[source] ?? 0, ms));
  };
  const add = (metric, unit, value) => (samples[metric] ??= { unit, values: [] }).values.push(Number(value.toFixed(3)));
  const servers = [];
  try {
    const projects = {};
    for (const [label, size] of Object.entries(SIZES)) {
      const folder = join(scratch, label);
      await writeFile(join(await mkdirp(folder), 'index.html'), referenceComposition({ ...size, duration: DURATION }));
      for (const file of PLAYER_FILES) await cp(join(bundleDir(), file), join(folder, file));
      projects[label] = folder;
      servers.push((projects[`${label}:server`] = await startProjectServer(folder, bundleDir())));
      for (let index = 0; index < RUNS; index++) {
        const started = performance.now();
        const result = await render({
          projectDir: folder,
          composition: 'index.html',
          fps: FPS,
          quality: 'standard',
          format: 'mp4',
          outputPath: join(scratch, `${label}-${index}.mp4`),
        });
        add(`server render ${label}`, 'fps', result.frames / ((performance.now() - started) / 1000));
      }
    }
    for (const [rasteriser, flags] of Object.entries(RASTERISERS)) {
      const browser = await chromium.launch({
        executablePath: BrowserExecutable.chromium(),
        args: [...COMMON_FLAGS, ...flags],
      });
      try {
        for (const label of Object.keys(SIZES)) {
          for (let index = 0; index < RUNS; index++) {
            const exported = await timedExport(browser, projects[`${label}:server`], rasteriser);
            details.rasteriserUsed[rasteriser] = exported.rasteriser;
            details.encodedIn[rasteriser] = exported.encodedIn;
            addLongestBySource(`${rasteriser} ${label}`, exported.longestBySource);
            add(`export ${rasteriser} ${label}`, 'fps', exported.frames / (exported.ms / 1000));
            add(`export ${rasteriser} ${label}: longest main-thread task`, 'ms', exported.longestTaskMs);
            context.log(`${rasteriser} ${label}: ${(exported.frames / (exported.ms / 1000)).toFixed(1)} fps`);
          }
          details.ratios[`${rasteriser} ${label}`] = Number(
            (
              median(samples[`export ${rasteriser} ${label}`].values) / median(samples[`server render ${label}`].values)
            ).toFixed(2),
          );
        }
      } finally {
        await browser.close();
      }
    }
    // A 60 s 1080p export's peak heap: the file grows in memory (no target stream here), the frames do not.
    const long = join(scratch, 'long');
    await writeFile(
      join(await mkdirp(long), 'index.html'),
      referenceComposition({ ...SIZES['1080p'], duration: LONG_DURATION }),
    );
    for (const file of PLAYER_FILES) await cp(join(bundleDir(), file), join(long, file));
    const longServer = await startProjectServer(long, bundleDir());
    servers.push(longServer);
    const browser = await chromium.launch({
      executablePath: BrowserExecutable.chromium(),
      args: [...COMMON_FLAGS, ...RASTERISERS['html-in-canvas']],
    });
    try {
      const exported = await timedExport(browser, longServer, 'auto');
      add(`export ${LONG_DURATION} s 1080p: peak JS heap`, 'MiB', exported.peakHeapMiB);
      add(`export ${LONG_DURATION} s 1080p: longest main-thread task`, 'ms', exported.longestTaskMs);
      details.longRasteriser = exported.rasteriser;
      addLongestBySource(`${LONG_DURATION} s 1080p`, exported.longestBySource);
    } finally {
      await browser.close();
    }
  } finally {
    for (const server of servers) await server.close();
    await rm(scratch, { recursive: true, force: true });
  }
  const ratio = details.ratios['html-in-canvas 1080p'];
  return {
    metrics: Object.entries(samples).map(([metric, { unit, values }]) => ({ name: metric, unit, samples: values })),
    details: {
      ...details,
      budget: `1080p html-in-canvas ≥ ${BUDGET_RATIO}× server: ${ratio >= BUDGET_RATIO ? 'met' : 'missed'} (${ratio}×)`,
    },
  };
}

async function mkdirp(folder) {
  await mkdir(folder, { recursive: true });
  return folder;
}
