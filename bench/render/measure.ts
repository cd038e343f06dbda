// The timed pieces of the render benchmark, in TypeScript so they drive the renderer's own modules (loaded by
// bench.mjs through tsx): capture alone, encode alone, and whole renders.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleDir } from '../../src/render/bundles.js';
import { CaptureWorker } from '../../src/render/capture-worker.js';
import { compileInBrowser } from '../../src/render/compile-in-browser.js';
import { encoderPreset } from '../../src/render/encoder-presets.js';
import { RenderNetworkPolicy } from '../../src/render/network/policy.js';
import { startProjectServer } from '../../src/render/project-server.js';
import { render } from '../../src/render/render.js';
import { startVideoEncoder } from '../../src/render/video-encoder.js';
import { RenderWatch } from '../../src/render/watch.js';
import type { CaptureMode } from '../../src/render/types.js';

const PRESET = encoderPreset('mp4', 'standard');

export interface CaptureRun {
  /** Frames per second of `__fx.seek` + capture, frames kept in memory. */
  readonly captureFps: number;
  /** Frames per second of capture alone on an unchanged page (what the browser can deliver at best). */
  readonly idleCaptureFps: number;
  readonly frames: Buffer[];
}

/** Loads the composition like a render does, then times the frame loop without any encoding. */
export async function measureCapture(input: {
  projectDir: string;
  viewport: { width: number; height: number };
  frames: number;
  fps: number;
  mode: Exclude<CaptureMode, 'auto'>;
}): Promise<CaptureRun> {
  const server = await startProjectServer(input.projectDir, bundleDir());
  const watch = new RenderWatch(undefined, 60_000);
  const worker = await CaptureWorker.start({
    mode: input.mode,
    viewport: input.viewport,
    scale: 1,
    transparent: false,
    watch,
    network: new RenderNetworkPolicy(server.origin, false),
  });
  try {
    const compiled = await compileInBrowser(worker.page, server, 'index.html', {
      fps: input.fps,
      variables: {},
      allowCompositionReadsUnder: [],
    });
    await worker.load(server.addDocument('bench', compiled.html));
    await worker.frame(0, input.fps, PRESET); // warm-up
    const frames: Buffer[] = [];
    let started = performance.now();
    for (let index = 0; index < input.frames; index++) frames.push(await worker.frame(index, input.fps, PRESET));
    const captureFps = input.frames / ((performance.now() - started) / 1000);
    const idleFrames = Math.min(30, input.frames);
    started = performance.now();
    for (let index = 0; index < idleFrames; index++) await worker.page.capture(PRESET.image, PRESET.jpegQuality);
    const idleCaptureFps = idleFrames / ((performance.now() - started) / 1000);
    return { captureFps, idleCaptureFps, frames };
  } finally {
    await worker.close();
    await server.close();
    watch.dispose();
  }
}

/** Times FFmpeg alone: the captured frames piped from memory into the mp4 encoder of a `standard` render. */
export async function measureEncode(input: {
  frames: Buffer[];
  fps: number;
  width: number;
  height: number;
  scratchDir: string;
}): Promise<number> {
  const outputPath = join(input.scratchDir, 'encode-only.mp4');
  const started = performance.now();
  const encoder = startVideoEncoder({
    preset: PRESET,
    fps: input.fps,
    width: input.width,
    height: input.height,
    outputPath,
    container: 'mp4',
  });
  for (const frame of input.frames) await encoder.write(frame);
  await encoder.finish();
  const fps = input.frames.length / ((performance.now() - started) / 1000);
  await rm(outputPath, { force: true });
  return fps;
}

/** Times a whole `render()` (compile, load, capture, encode) at the composition's own size. */
export async function measureRender(input: {
  projectDir: string;
  fps: number;
  concurrency: number;
  scratchDir: string;
}): Promise<{ fps: number; frames: number; capture: string }> {
  const outputPath = join(input.scratchDir, `render-${input.concurrency}.mp4`);
  const started = performance.now();
  const result = await render({
    projectDir: input.projectDir,
    composition: 'index.html',
    fps: input.fps,
    quality: 'standard',
    format: 'mp4',
    outputPath,
    concurrency: input.concurrency,
  });
  const fps = result.frames / ((performance.now() - started) / 1000);
  await rm(result.videoPath, { force: true });
  await rm(result.thumbnailPath, { force: true });
  return { fps, frames: result.frames, capture: result.capture ?? 'unknown' };
}
