/**
 * The renderer's contract with the service and the CLI (implemented in src/render).
 */
export type RenderFormat = 'mp4' | 'webm' | 'mov';
export type RenderQuality = 'draft' | 'standard' | 'high';
export type RenderResolution = '1080p' | '4k';
export type AspectRatio = '16:9' | '9:16' | '1:1';

export interface RenderOptions {
  /** Directory holding the project (entry HTML, assets, sub-compositions). */
  readonly projectDir: string;
  /** Entry HTML file inside the project, e.g. `index.html`. */
  readonly composition: string;
  readonly fps: number;
  readonly quality: RenderQuality;
  readonly format: RenderFormat;
  /** Output size; when omitted the composition's own `data-width`/`data-height` are used. */
  readonly resolution?: RenderResolution;
  readonly aspectRatio?: AspectRatio;
  /** Top-level overrides, injected exactly as the preview injects `window.__fxVariables`. */
  readonly variables?: Record<string, unknown>;
  /** Where to write the video; the thumbnail goes next to it. */
  readonly outputPath: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RenderProgress) => void;
}

export type RenderStage = 'compiling' | 'loading' | 'capturing' | 'encoding' | 'muxing' | 'done';

export interface RenderProgress {
  readonly stage: RenderStage;
  readonly framesDone: number;
  readonly framesTotal: number;
}

export interface RenderResult {
  readonly videoPath: string;
  readonly thumbnailPath: string;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frames: number;
  readonly duration: number;
}

export type RenderFunction = (options: RenderOptions) => Promise<RenderResult>;
