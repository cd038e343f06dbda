import { COMPOSITION_BACKDROP } from '../runtime/constants.js';
import type { CdpConnection } from './cdp.js';
import { GENERIC_FONT_FAMILIES } from './chromium.js';
import { RenderErrorCode, renderError } from './errors.js';
import type { RenderWatch } from './watch.js';
import type { CaptureMode } from './types.js';

export type ImageFormat = 'jpeg' | 'png';

/**
 * BeginFrame answers without an image while the renderer is still initialising (seen right after load, e.g.
 * with a `<video>` layer); asking again a little later fixes it. Waits before each retry, in ms.
 */
const CAPTURE_RETRY_DELAYS_MS = [10, 25, 50, 100, 200, 400, 800];

interface EvaluateResult {
  result?: { value?: unknown; description?: string };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/**
 * One tab of a render browser: navigation, script evaluation and frame capture, every call raced against the
 * render's watch (abort, time limit, crash).
 */
export class BrowserPage {
  /** Uncaught errors of the page's scripts, newest last (for error messages). */
  readonly pageErrors: string[] = [];

  constructor(
    private readonly cdp: CdpConnection,
    private readonly sessionId: string,
    readonly mode: Exclude<CaptureMode, 'auto'>,
    private readonly watch: RenderWatch,
  ) {
    cdp.on((event) => {
      if (event.sessionId !== sessionId || event.method !== 'Runtime.exceptionThrown') return;
      const details = (event.params as { exceptionDetails?: EvaluateResult['exceptionDetails'] }).exceptionDetails;
      this.pageErrors.push(details?.exception?.description ?? details?.text ?? 'unknown error');
      if (this.pageErrors.length > 20) this.pageErrors.shift();
    });
  }

  send<Result = Record<string, unknown>>(
    what: string,
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<Result> {
    return this.watch.step(what, this.cdp.send<Result>(method, params, this.sessionId));
  }

  async prepare(viewport: { width: number; height: number }, scale: number, transparent: boolean): Promise<void> {
    await Promise.all([
      this.send('preparing the page', 'Page.enable'),
      this.send('preparing the page', 'Runtime.enable'),
      this.setViewport(viewport, scale),
      this.send('preparing the page', 'Page.setFontFamilies', { fontFamilies: GENERIC_FONT_FAMILIES }),
      // What the composition leaves unpainted: the preview's backdrop, or transparent for formats with alpha.
      this.send('preparing the page', 'Emulation.setDefaultBackgroundColorOverride', {
        color: { ...COMPOSITION_BACKDROP, a: transparent ? 0 : 1 },
      }),
    ]);
  }

  /** The page's size in CSS pixels; `scale` must match the browser's `--force-device-scale-factor`. */
  async setViewport(viewport: { width: number; height: number }, scale: number): Promise<void> {
    await this.send('sizing the page', 'Emulation.setDeviceMetricsOverride', {
      ...viewport,
      deviceScaleFactor: scale,
      mobile: false,
    });
  }

  /** Navigates and resolves once the page's `load` event fired. */
  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => {
      const off = this.cdp.on((event) => {
        if (event.sessionId === this.sessionId && event.method === 'Page.loadEventFired') {
          off();
          resolve();
        }
      });
    });
    const { errorText } = await this.send<{ errorText?: string }>(`loading "${url}"`, 'Page.navigate', { url });
    if (errorText)
      throw renderError(RenderErrorCode.compositionLoadFailed, `"${url}" could not be loaded: ${errorText}`);
    await this.watch.step(`loading "${url}"`, loaded);
  }

  /**
   * Runs `fn` in the page with `arg` (awaiting a returned promise) and returns its JSON value; page exceptions
   * reject. `fn` travels as source text, so it may use only its argument and page globals (see frame-calls.ts).
   */
  call<Result>(what: string, fn: () => Result | Promise<Result>): Promise<Result>;
  call<Arg, Result>(what: string, fn: (arg: Arg) => Result | Promise<Result>, arg: Arg): Promise<Result>;
  call<Arg, Result>(what: string, fn: (arg?: Arg) => Result | Promise<Result>, arg?: Arg): Promise<Result> {
    return this.evaluate<Result>(what, `(${fn})(${arg === undefined ? '' : JSON.stringify(arg)})`);
  }

  /** Evaluates an expression given as source text (tests probe pages with it); the renderer uses {@link call}. */
  async evaluate<T>(what: string, expression: string): Promise<T> {
    const answer = await this.send<EvaluateResult>(what, 'Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (answer.exceptionDetails) {
      const details = answer.exceptionDetails;
      throw renderError(
        RenderErrorCode.compositionLoadFailed,
        `${what} failed: ${details.exception?.description ?? details.text ?? 'unknown error'}`,
      );
    }
    return answer.result?.value as T;
  }

  /** Paints the current state and returns it as an image (one BeginFrame, or one screenshot). */
  async capture(format: ImageFormat, quality: number): Promise<Buffer> {
    // `optimizeForSpeed` makes PNG (alpha formats) about 4× faster to encode (bigger files, same pixels).
    const screenshot = { format, ...(format === 'jpeg' ? { quality } : {}), optimizeForSpeed: true };
    for (let attempt = 0; attempt <= CAPTURE_RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0)
        await this.watch.step(
          'capturing a frame',
          new Promise((resolve) => setTimeout(resolve, CAPTURE_RETRY_DELAYS_MS[attempt - 1])),
        );
      const data =
        this.mode === 'begin-frame'
          ? (
              await this.send<{ screenshotData?: string }>('capturing a frame', 'HeadlessExperimental.beginFrame', {
                screenshot,
              })
            ).screenshotData
          : (await this.send<{ data?: string }>('capturing a frame', 'Page.captureScreenshot', screenshot)).data;
      if (data) return Buffer.from(data, 'base64');
    }
    throw renderError(
      RenderErrorCode.frameCaptureFailed,
      `the browser returned no image ${CAPTURE_RETRY_DELAYS_MS.length + 1} times in a row`,
    );
  }
}
