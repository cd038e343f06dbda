import { FxError, isFxError } from '../runtime/errors.js';
import { BrowserProcess } from './browser.js';
import type { EncoderPreset } from './encoder-presets.js';
import { awaitReady, seekTo, type LoadedComposition } from './frame-calls.js';
import type { RenderNetworkPolicy } from './network/policy.js';
import type { BrowserPage } from './page.js';
import type { RenderWatch } from './watch.js';
import type { CaptureMode } from './types.js';

export interface WorkerSettings {
  readonly mode: Exclude<CaptureMode, 'auto'>;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly scale: number;
  /** Transparent page background (alpha formats). */
  readonly transparent: boolean;
  readonly watch: RenderWatch;
  readonly network: RenderNetworkPolicy;
}

/**
 * One capture worker: a browser process with one tab. It loads the compiled document, then for each of its
 * frames seeks through the runtime (`__fx.seek`, which resolves once the frame is ready to paint) and captures.
 */
export class CaptureWorker {
  private constructor(
    readonly browser: BrowserProcess,
    readonly page: BrowserPage,
    readonly settings: WorkerSettings,
  ) {}

  static async start(settings: WorkerSettings): Promise<CaptureWorker> {
    const browser = await BrowserProcess.launch({
      mode: settings.mode,
      scale: settings.scale,
      watch: settings.watch,
      network: settings.network,
    });
    try {
      const page = await browser.newPage(settings.viewport, settings.scale, settings.transparent);
      return new CaptureWorker(browser, page, settings);
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  /** Opens the compiled document and waits for `__fx.ready`. */
  async load(documentUrl: string): Promise<LoadedComposition> {
    await this.page.goto(documentUrl);
    try {
      return await this.page.call('waiting for the composition to get ready', awaitReady);
    } catch (error) {
      const pageError = this.page.pageErrors.at(-1);
      if (isFxError(error) && pageError)
        throw new FxError(error.code, `${error.message}; the page's last error: ${pageError}`, { cause: error });
      throw error;
    }
  }

  /** Seeks to frame `index` of the `fps` grid and captures it. */
  async frame(index: number, fps: number, preset: EncoderPreset): Promise<Buffer> {
    await this.page.call('seeking', seekTo, index / fps);
    return this.page.capture(preset.image, preset.jpegQuality);
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
