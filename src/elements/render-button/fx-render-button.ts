import '../internal/lit-dev-notice.js';
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { cloudRender, type CloudRenderResult } from '../../client/cloud-render.js';
import { ClientErrorCode } from '../../client/errors.js';
import { clientConfig } from '../../client/options.js';
import type { Credentials } from '../../client/credentials.js';
import type { Render } from '../../wire/responses.js';
import { describeProgress, progressFraction, type CloudRenderProgress } from '../../client/progress.js';
import { FxError, isFxError } from '../../runtime/errors.js';
import { DEFAULT_POLL_INTERVAL_MS } from '../../client/wait.js';
import { checkFrames, renderSettings, type RenderSettingsOptions } from '../../client/render-settings.js';
import type { RenderFormat } from '../../wire/render-request.js';
import { FxRenderButtonErrorCode, FxRenderButtonEvent, FxRenderButtonMode } from './constants.js';
import { browserExportProblem, canExportHere, exportInPage, fallsBackToCloud } from './browser-export.js';
import type { ExportVideoResult } from '../../export/export-video.js';
import { metadataFromAttribute, renderOptionsOf, type ButtonSettings } from './render-options.js';
import type { FxComposition } from '../composition/fx-composition.js';
import { styles } from './fx-render-button.styles.js';
import { readSignedIn, signedInCredentials, type SignInSettings } from './sign-in.js';

/** The properties a sign-in depends on. */
const SIGN_IN_PROPERTIES = ['service', 'issuer', 'clientId', 'redirectUri', 'credentials'] as const;

type Run =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly progress: CloudRenderProgress | undefined }
  | { readonly kind: 'done'; readonly href: string; readonly fileName: string }
  | { readonly kind: 'failed'; readonly code: string; readonly message: string };

/**
 * "Render this": renders the `<fx-composition>` it names with that element's current variables on a `/v3` render
 * service, signing in first when it has no credentials, then offers the video for download.
 *
 * @tagname fx-render-button
 * @summary Renders a live preview to a video file.
 *
 * @attr for - Id of the `<fx-composition>` to render (looked up in the button's own document or shadow root).
 * @attr service - Base URL of the render service (`…/v3` is appended). Default: the page's origin.
 * @attr issuer - OAuth issuer to sign in with. Default: the one the service names in its metadata.
 * @attr client-id - OAuth client id. Default `fx-browser`.
 * @attr redirect-uri - Where the sign-in returns; must be registered for the client. Default: this page.
 * @attr format - `mp4` (default), `webm`, `mov` (videos), `gif`, or a still: `png`, `jpeg`, `webp`.
 * @attr quality - `draft`, `standard` (default) or `high`.
 * @attr resolution - `1080p` (default) or `4k` (mp4 and jpeg only).
 * @attr fps - Frames per second, 1–240 (a GIF: at most 30). Default 30, a GIF 15.
 * @attr time - A still's frame, in seconds into the composition. Default: its middle. Stills only.
 * @attr thumbnail-time - The thumbnail's frame, in seconds into the composition. Default: 1 s in. Videos and GIF.
 * @attr range - Render only part of the timeline: `start:end` in seconds, e.g. `1.5:4`. Videos and GIF.
 * @attr no-loop - A GIF plays once (without it, forever). GIF only.
 * @attr metadata - A JSON object stored with the render and echoed in its webhook (at most 4 KiB, 4 levels).
 * @attr poll-interval - Milliseconds between two looks at the render's progress. Default 10000.
 * @attr mode - `cloud` (default: the render service), `browser` (made in this page with `exportVideo`: mp4 or webm,
 *   no service, no sign-in) or `auto` (in the page when the browser can and the capture check passes, else the
 *   service).
 *
 * @prop {Record<string, unknown> | undefined} metadata - The `metadata` attribute, read as JSON; set an object here
 *   from script.
 * @prop {Credentials | undefined} credentials - Use these (e.g. `apiKeyCredentials(key)` on an internal page)
 *   instead of signing in.
 *
 * @fires {CustomEvent<CloudRenderProgress>} renderprogress - A stage advanced.
 * @fires {CustomEvent<FxRenderedDetail>} rendered - The video (or GIF, or still) is ready to save: `{ renderId, videoUrl, blob, render }`, or `{ blob, exported }` for an export made in the page.
 * @fires {CustomEvent<{ code: string, message: string }>} error - Signing in or rendering failed (or was cancelled).
 *
 * @slot - The button's label. Default "Render video".
 * @csspart button - The button that starts a render.
 * @csspart progress - The progress bar while rendering.
 * @csspart status - What is happening (stage and percent).
 * @csspart cancel - Stops the render.
 * @csspart download - The link to the finished video.
 * @csspart error - The failure, with its code.
 * @cssproperty --fx-render-button-background
 * @cssproperty --fx-render-button-color
 * @cssproperty --fx-render-button-error-color
 */
export class FxRenderButton extends LitElement {
  static override styles = styles;

  @property() for = '';
  @property() service = '';
  @property() issuer = '';
  @property({ attribute: 'client-id' }) clientId = 'fx-browser';
  @property({ attribute: 'redirect-uri' }) redirectUri = '';
  @property() format: RenderFormat = 'mp4';
  @property() quality: 'draft' | 'standard' | 'high' = 'standard';
  @property() resolution: '1080p' | '4k' = '1080p';
  @property({ type: Number }) fps: number | undefined;
  @property({ type: Number }) time: number | undefined;
  @property({ type: Number, attribute: 'thumbnail-time' }) thumbnailTime: number | undefined;
  @property() range: string | undefined;
  @property({ type: Boolean, attribute: 'no-loop' }) noLoop = false;
  @property({ converter: { fromAttribute: metadataFromAttribute } }) metadata:
    Readonly<Record<string, unknown>> | undefined;
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = DEFAULT_POLL_INTERVAL_MS;
  @property({ attribute: false }) credentials: Credentials | undefined;
  @property() mode: FxRenderButtonMode = FxRenderButtonMode.cloud;

  @state() private run: Run = { kind: 'idle' };
  #abort: AbortController | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.cancel();
    this.#forgetDownload();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Known before the click whether it must open the sign-in window (it may not await first: signedInCredentials).
    if (this.credentials || !SIGN_IN_PROPERTIES.some((name) => changed.has(name))) return;
    try {
      readSignedIn(this.#signInSettings(this.#baseUrl()));
    } catch {
      // a `service` that is not a URL: the click reports it
    }
  }

  /** Renders the composition now (what a click does). Resolves when it finished, failed or was cancelled. */
  async start(): Promise<void> {
    if (this.run.kind === 'running') return;
    this.#forgetDownload();
    const abort = new AbortController();
    this.#abort = abort;
    this.run = { kind: 'running', progress: undefined };
    try {
      const { fileName, ...detail } = await this.#render(abort.signal);
      const href = URL.createObjectURL(detail.blob);
      this.run = { kind: 'done', href, fileName };
      this.#emit(FxRenderButtonEvent.rendered, detail);
    } catch (error) {
      // A cancel during sign-in surfaces as the signal's own reason: one code for every cancelled stage.
      const code = abort.signal.aborted
        ? ClientErrorCode.aborted
        : isFxError(error)
          ? error.code
          : FxRenderButtonErrorCode.failed;
      const message = error instanceof Error ? error.message : String(error);
      this.run = { kind: 'failed', code, message };
      this.#emit(FxRenderButtonEvent.error, { code, message });
    } finally {
      if (this.#abort === abort) this.#abort = undefined;
    }
  }

  /** Stops a render in progress: nothing of it keeps running here (the service may still finish it). */
  cancel(): void {
    this.#abort?.abort();
  }

  async #render(signal: AbortSignal): Promise<FxRenderedDetail & { fileName: string }> {
    const composition = this.#composition();
    const onProgress = (progress: CloudRenderProgress) => {
      this.run = { kind: 'running', progress };
      this.#emit(FxRenderButtonEvent.progress, progress);
    };
    const mode = this.#mode();
    if (mode === FxRenderButtonMode.browser || (mode === FxRenderButtonMode.auto && this.#exportsHere())) {
      try {
        const exported = await exportInPage(composition, this.#settings(), signal, onProgress);
        const name = composition.id || composition.metadata?.id || 'composition';
        return { renderId: '', videoUrl: '', blob: exported.video!, exported, fileName: `${name}.${exported.format}` };
      } catch (error) {
        if (mode === FxRenderButtonMode.browser || signal.aborted || !fallsBackToCloud(error)) throw error;
      }
    }
    const { render, video } = await this.#cloudRender(composition, signal, onProgress);
    return {
      renderId: render.render_id,
      videoUrl: render.video_url ?? '',
      blob: video,
      render,
      fileName: `${render.render_id}.${render.format}`,
    };
  }

  /** `auto` exports in the page when the browser can and the settings are ones the page exports. */
  #exportsHere(): boolean {
    return canExportHere() && browserExportProblem(this.#settings()) === undefined;
  }

  #mode(): FxRenderButtonMode {
    const modes: readonly string[] = Object.values(FxRenderButtonMode);
    if (modes.includes(this.mode)) return this.mode;
    throw new FxError(
      FxRenderButtonErrorCode.attributeInvalid,
      `"mode" must be one of ${modes.map((mode) => `"${mode}"`).join(', ')}, got ${JSON.stringify(String(this.mode).slice(0, 40))}`,
    );
  }

  async #cloudRender(
    composition: FxComposition,
    signal: AbortSignal,
    onProgress: (progress: CloudRenderProgress) => void,
  ): Promise<CloudRenderResult & { video: Blob }> {
    // Checked before signing in, so a bad `service` is `client_option_invalid` and no sign-in window opens for it,
    // and a bad attribute is refused with its code before a window opens too.
    const baseUrl = this.#baseUrl();
    const renderOptions = this.#renderOptions(composition);
    const credentials = this.credentials ?? (await signedInCredentials(this.#signInSettings(baseUrl), onProgress));
    signal.throwIfAborted();
    const result = await cloudRender(
      { embed: composition },
      {
        baseUrl,
        credentials,
        ...renderOptions,
        pollInterval: this.pollInterval,
        signal,
        onProgress,
      },
    );
    return result as CloudRenderResult & { video: Blob };
  }

  #settings(): ButtonSettings {
    // A removed number attribute reads as null.
    const number = (value: number | null | undefined) => value ?? undefined;
    return {
      format: this.format,
      quality: this.quality,
      resolution: this.resolution,
      fps: number(this.fps),
      time: number(this.time),
      thumbnailTime: number(this.thumbnailTime),
      range: this.range ?? undefined,
      noLoop: this.noLoop,
      metadata: this.metadata,
    };
  }

  #renderOptions(composition: FxComposition): Omit<RenderSettingsOptions, 'dryRun'> {
    const options = renderOptionsOf(this.#settings());
    // What the service would refuse, refused now with its code (the click reports it; nothing opens or is sent).
    const settings = renderSettings(options);
    const duration = composition.metadata?.duration;
    if (duration) checkFrames(duration, settings);
    return options;
  }

  #baseUrl(): string {
    return clientConfig({ baseUrl: this.service || location.origin }).base;
  }

  #signInSettings(serviceUrl: string): SignInSettings {
    return { issuer: this.issuer, serviceUrl, clientId: this.clientId, redirectUri: this.redirectUri };
  }

  /** As `<fx-composition>`: bubbling and composed, but `error`, which stays on the element. */
  #emit(name: FxRenderButtonEvent, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { bubbles: name !== FxRenderButtonEvent.error, composed: true, detail }));
  }

  #composition(): FxComposition {
    const root = this.getRootNode() as Document | ShadowRoot;
    const found = this.for ? root.getElementById(this.for) : null;
    // By tag, not class: a page may load two copies of the SDK (a bundle and a classic script).
    if (found?.localName !== 'fx-composition') {
      throw new FxError(
        FxRenderButtonErrorCode.compositionNotFound,
        `<fx-render-button for="${this.for}"> names no <fx-composition> in its document`,
      );
    }
    return found as FxComposition;
  }

  #forgetDownload(): void {
    if (this.run.kind === 'done') URL.revokeObjectURL(this.run.href);
  }

  protected override render() {
    const { run } = this;
    const running = run.kind === 'running';
    return html`
      <button
        part="button"
        type="button"
        ?disabled=${running}
        aria-describedby="state"
        @click=${() => void this.start()}
      >
        <slot>Render video</slot>
      </button>
      <span id="state" part="status" role="status"
        >${running ? (run.progress ? describeProgress(run.progress) : 'Starting') : nothing}</span
      >
      ${running ? this.#renderProgress(run.progress) : nothing}
      ${run.kind === 'done' ? html`<a part="download" href=${run.href} download=${run.fileName}>Download ${run.fileName}</a>` : nothing}
      ${run.kind === 'failed' ? html`<span part="error" role="alert"><code>${run.code}</code>: ${run.message}</span>` : nothing}
    `;
  }

  #renderProgress(progress: CloudRenderProgress | undefined) {
    const fraction = progress && progressFraction(progress);
    return html`
      <progress part="progress" aria-label="Render progress" max="1" value=${fraction ?? nothing}></progress>
      <button part="cancel" type="button" @click=${() => this.cancel()}>Cancel</button>
    `;
  }
}

/** Every event of `<fx-render-button>` with its type; `error` is a `CustomEvent` with `{ code, message }`. */
export interface FxRenderButtonEventMap extends Omit<HTMLElementEventMap, typeof FxRenderButtonEvent.error> {
  [FxRenderButtonEvent.progress]: CustomEvent<CloudRenderProgress>;
  [FxRenderButtonEvent.rendered]: CustomEvent<FxRenderedDetail>;
  [FxRenderButtonEvent.error]: CustomEvent<{ readonly code: string; readonly message: string }>;
}

export interface FxRenderedDetail {
  /** The service's render id; `''` for an export made in the page. */
  readonly renderId: string;
  /** The service's signed link (it expires; the Blob does not); `''` for an export made in the page. */
  readonly videoUrl: string;
  readonly blob: Blob;
  /** The render's record (its variables, output size, frames, credits); absent for an export made in the page. */
  readonly render?: Render;
  /** What an export made in the page wrote (codec, rasteriser, frames); absent for the service's renders. */
  readonly exported?: ExportVideoResult;
}

// Typed listeners for the button's own events.
export interface FxRenderButton {
  addEventListener<K extends keyof FxRenderButtonEventMap>(
    type: K,
    listener: (this: FxRenderButton, event: FxRenderButtonEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof FxRenderButtonEventMap>(
    type: K,
    listener: (this: FxRenderButton, event: FxRenderButtonEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}
