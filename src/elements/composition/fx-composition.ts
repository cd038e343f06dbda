import { OPEN_CAPTURE, type CaptureFrame, type CaptureRequest } from '../../export/capture-source.js';
import { openCaptureFrame } from './capture-frames.js';
import { captureFrame, type CaptureFrameOptions } from '../../export/capture-still.js';
import { exportVideo, type ExportVideoOptions, type ExportVideoResult } from '../../export/export-video.js';
import '../internal/lit-dev-notice.js';
import { LitElement, type PropertyValues } from 'lit';
import { property, query } from 'lit/decorators.js';
import type { ProjectDependency, ProjectFilesOptions } from '../../client/zip/embed-files.js';
import type { ProjectEntry } from '../../client/zip/sources.js';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { CompositionMetadata } from '../../runtime/metadata.js';
import { Message, type FrameMessage, type ReadyMessage } from '../../runtime/protocol/messages.js';
import { FxCompositionEvent } from '../internal/constants.js';
import { emit, type FxCompositionEventMap, type FxErrorDetail } from '../internal/events.js';
import { ErrorLog } from './error-log.js';
import { FocusGuard } from './focus-guard.js';
import { FrameLoader, type Playhead } from './frame-loader.js';
import type { FrameSession } from './frame-session.js';
import { clampTime, stageOf, trustedError, type Stage } from './frame-reports.js';
import { styles } from './fx-composition.styles.js';
import { LiveVariables } from './live-variables.js';
import { LoadStatus } from './load-status.js';
import { OncePerFrame } from './once-per-frame.js';
import { PlaybackSettings } from './playback-settings.js';
import { timeRanges } from './playback-status.js';
import { PlayerControls } from './player-controls.js';
import { DEFAULT_POSTER_TIME } from './poster-time.js';
import { ProjectFiles } from './project-files.js';
import { defaultRuntimeUrl, embeddedRuntimeScript } from './runtime-url.js';
import { StageLayout } from './stage-layout.js';
import { renderStage } from './stage-view.js';
import { Transport } from './transport.js';
import { UnheardEvents } from './unheard-events.js';
import { variablesConverter } from './variables-input.js';
import { Viewport } from './viewport.js';

/**
 * A live, isolated preview of an fx composition. Plays, seeks frame-exactly and updates its variables in place.
 *
 * @tagname fx-composition
 * @summary Live preview of an HTML video composition with typed variables.
 *
 * @attr src - URL of the composition's entry HTML.
 * @attr srcdoc - Composition HTML given inline (used when `src` is absent).
 * @attr variables - JSON object of variable overrides (top-level composition only).
 * @attr controls - Shows play/pause, a scrubber, the time, mute and volume, the playback rate and fullscreen. They
 *   hide after 2 s without pointer or keyboard activity while playing. Keys while focus is inside the element:
 *   Space or `k` play/pause, `j`/`l` and ←/→ seek 5 s (on the scrubber, arrows step one frame), `m` mutes, `f`
 *   toggles fullscreen, Home/End go to the start/end.
 * @attr autoplay - Starts playing once ready.
 * @attr loop - Starts again at the end.
 * @attr muted - Mutes the composition's media.
 * @attr nonce - CSP nonce stamped on the composition's scripts and styles. Read through the native `nonce`
 *   property, which keeps the value after the browser hides the attribute.
 * @attr loading - `lazy` defers loading until the element nears the viewport.
 * @attr poster - Image shown until the first frame is ready.
 * @attr poster-time - Which frame a paused, never-played element shows once ready: seconds (`2.5`) or a share of
 *   the duration (`40%`); default `50%` (t = 0 is often empty while things animate in). The playhead stays at 0:
 *   `play()` starts from the beginning. Not used with `autoplay` or a `currentTime` set before ready.
 *
 * @prop {Record<string, unknown>} variables - Overrides; setting it updates the preview live, keeping the playhead.
 *   Values equal by content to those in effect are a no-op (nothing reaches the frame, no `variableschange`), so
 *   a framework may pass a new object on every render. `null`, `undefined` and `''` mean no overrides (the declared
 *   defaults); a string is parsed as JSON, like the attribute. Anything else (not a JSON object, beyond the value
 *   bounds) is refused with an `error` event `variables_json_invalid`, and the values in effect stay.
 * @prop {VariableDeclaration[]} declarations - The composition's declared variables (after load).
 * @prop {CompositionMetadata | undefined} metadata - Id, size, duration, declarations and compile issues.
 * @prop {ProjectDependency[]} dependencies - The files the composition uses, each `{ path, url }` with its path in a
 *   project zip (the entry is `index.html`); empty until loaded. See `projectFiles()`.
 * @prop {string[]} allowCompositionReadsUnder - Folders (URL prefixes) beyond the entry's own folder whose files
 *   the composition may have the host fetch and inline (sub-compositions, stylesheets, scripts, fonts). What is
 *   served there becomes readable by the composition: list only folders of public composition files. Default: none.
 * @prop {number} currentTime - Playhead in seconds; setting it seeks. Set before ready, it is where the element starts.
 * @prop {string} posterTime - See the `poster-time` attribute.
 * @prop {number} duration - Length in seconds (`NaN` until loaded).
 * @prop {boolean} paused
 * @prop {boolean} ended
 * @prop {boolean} ready - True once the first frame is ready.
 * @prop {boolean} seeking - True from a seek's start until its `seeked`.
 * @prop {number} playbackRate - Speed of the composition and its media, 0.0625 to 16 (the range browsers play
 *   media at; 0 is refused too: use `pause()`). Anything else throws, as HTMLMediaElement does: a `TypeError` when
 *   not a finite number, else a `NotSupportedError` `DOMException`; the rate stays. A source replacing another
 *   starts at `defaultPlaybackRate` (a rate set before the first load is kept). Fires `ratechange`.
 * @prop {number} defaultPlaybackRate - The rate a replacing source starts at (checked like `playbackRate`).
 * @prop {number} volume - 0 to 1, scaling each media element's own volume in the composition; out of range
 *   throws an `IndexSizeError` `DOMException` (not finite: a `TypeError`), as HTMLMediaElement does. Fires
 *   `volumechange`.
 * @prop {number} readyState - HTMLMediaElement's: 0 until the first frame is ready, 1 while a seek is pending, else 4.
 * @prop {number} networkState - HTMLMediaElement's: 0 before any load, 2 while loading, 1 once loaded, 3 after a
 *   failed load.
 * @prop {TimeRanges} seekable - The whole duration once ready (the composition is never streamed).
 * @prop {TimeRanges} buffered - Same as `seekable`.
 * @prop {string[]} variablesRead - Read-only. Ids of top-level variables the composition's scripts read through
 *   `window.__fx.getVariables()` (or `window.__hyperframes.getVariables()`) — a property, destructuring, `in`,
 *   `Object.keys`… — declared or not, at load or later, in the order first read: each source's own (a reload
 *   keeps what it read before), shown once it is on stage. Reported by the frame, so bounded (at most 200 ids of at most 200
 *   characters) and no more than a hint: a composition can claim any ids. `<fx-variables-panel>` uses it.
 * @prop {FxErrorDetail[]} errors - Read-only. The `error` events since the current source started loading, newest
 *   last (at most 20), heard or not: what went wrong before the page listened. Without `controls` the latest also
 *   shows on the stage (part `errors`).
 *
 * @fires loadedmetadata - Duration and size are known.
 * @fires loadstart - A new `src`/`srcdoc` started loading.
 * @fires emptied - A new load replaced what was loaded (or failed) before.
 * @fires durationchange - `duration` changed.
 * @fires loadeddata - The first frame is ready (with `canplay` and `canplaythrough` right after it).
 * @fires canplay - Ready to play.
 * @fires canplaythrough - Ready to play to the end (the composition is never streamed).
 * @fires volumechange - `muted` or `volume` changed.
 * @fires ratechange - `playbackRate` or `defaultPlaybackRate` changed.
 * @fires ready - The first frame is ready to show. One no listener of the page heard (a framework hydrating
 *   server-rendered markup attaches its handlers late) reaches the listeners added afterwards, once each, in a
 *   microtask, until the next load starts.
 * @fires play - Playback started.
 * @fires playing - Playback is moving: after `play()` once the frame's clock runs, and after a seek made while
 *   playing landed.
 * @fires waiting - A seek started while playing: playback waits for it.
 * @fires pause - Playback paused (also at the end).
 * @fires timeupdate - The playhead moved.
 * @fires seeking - A seek started.
 * @fires seeked - A seek landed and its frame is on screen (see `seek()`).
 * @fires ended - Playback reached the end (not fired with `loop`).
 * @fires {CustomEvent<{ values: Record<string, unknown>, issues: Issue[], reloading: boolean }>} variableschange - Values were applied (`reloading`: another follows once the reloaded frame is ready).
 * @fires variablesread - `variablesRead` grew (at most once per animation frame).
 * @fires {CustomEvent<{ code: string, message: string }>} error - Loading, compiling or a composition script failed.
 *   Those no listener of the page heard reach the listeners added afterwards, as `ready` does (see `errors`).
 *
 * @csspart stage - The box the scaled composition sits in.
 * @csspart frame - The composition's iframe.
 * @csspart controls - The control bar.
 * @csspart play-button
 * @csspart scrubber
 * @csspart time
 * @csspart mute-button
 * @csspart volume - The volume slider.
 * @csspart rate-button - Steps through the playback rates 0.5×, 1×, 1.5×, 2×.
 * @csspart fullscreen-button - Left out where fullscreen is not available (`document.fullscreenEnabled`).
 * @csspart issues - The hint shown when variables have issues.
 * @csspart errors - The hint shown when the composition reported errors (the latest; all in its title): in the
 *   controls, or on the stage without them.
 * @csspart status - Loading and error messages.
 * @csspart poster
 *
 * @cssproperty --fx-controls-background - Background of the control bar.
 */
export class FxComposition extends LitElement {
  static override styles = styles;

  static #runtimeUrl: string | undefined;
  /**
   * Absolute URL of `fx-runtime.js` for every composition frame; `undefined` while the runtime's code comes with
   * this bundle (every browser build) and is written into each frame. Set it to self-host the runtime, e.g. under a
   * CSP without inline scripts.
   */
  static get runtimeUrl(): string | undefined {
    return FxComposition.#runtimeUrl ?? (embeddedRuntimeScript === undefined ? defaultRuntimeUrl() : undefined);
  }
  static set runtimeUrl(url: string) {
    FxComposition.#runtimeUrl = new URL(url, document.baseURI).href;
  }

  @property() src = '';
  @property() srcdoc: string | null = null;
  @property({ converter: variablesConverter, noAccessor: true })
  get variables(): Record<string, unknown> {
    return this.#variables.values;
  }
  set variables(input: Record<string, unknown> | string | null | undefined) {
    this.#variables.set(input);
  }
  @property({ type: Boolean }) controls = false;
  @property({ type: Boolean }) autoplay = false;
  @property({ type: Boolean }) loop = false;
  @property({ type: Boolean, reflect: true }) muted = false;
  @property() loading: 'eager' | 'lazy' = 'eager';
  @property() poster = '';
  // A literal: the manifest analyzer reads it (FxCompositionAttribute.posterTime names it too, checked by manifest.node.test.ts).
  @property({ attribute: 'poster-time' }) posterTime = DEFAULT_POSTER_TIME;
  @property({ attribute: false }) allowCompositionReadsUnder: readonly string[] = [];

  @query('.stage') private stage!: HTMLDivElement;

  // First: the controllers below may listen to the element as they are made.
  #unheard = new UnheardEvents(this, () => this.#load.ready);
  #errorLog = new ErrorLog(this, (detail) => this.#unheard.error(detail));
  /** Timing and size of the composition on stage, from the host's own compile (never from the frame). */
  #stage: Stage = stageOf({});
  #metadata: CompositionMetadata | undefined;
  #readReports = new OncePerFrame<true>(() => emit(this, FxCompositionEvent.variablesRead));
  // A rate set before the first load stays (frameworks set properties and attributes in any order).
  #load = new LoadStatus(
    this,
    () => this.#session,
    () => this.#settings.reset(),
  );
  #layout = new StageLayout(this);
  #viewport = new Viewport(this, {
    load: () => void this.#loader.load(),
    change: (visible) => this.#transport.visibility(visible),
  });
  #loader = new FrameLoader(this, {
    runtimeUrl: () => FxComposition.runtimeUrl,
    defer: () => this.#viewport.defer(this.loading === 'lazy'),
    loading: () => {
      this.#load.loading();
      this.#errorLog.reset();
      this.#unheard.reset();
    },
    compiled: (known, dependencies) => {
      this.#metadata = known;
      this.#project.compiled(dependencies, this.#loader.base, !this.src);
    },
    mount: (iframe, stage) => {
      this.#layout.place(iframe, stage);
      this.stage.append(iframe);
    },
    settings: (session) => this.#sendSettings(session),
    playhead: () => this.#transport.playhead,
    ready: (ready, keep, known) => this.#onReady(ready, keep, known),
    failed: (code, message) => this.#fail(code, message),
    catchUpValues: (frame, loaded, shown) => this.#variables.catchUp(frame, loaded, shown),
    message: (session, message) => this.#onFrameMessage(session, message),
  });
  #variables = new LiveVariables(this, this.#loader);
  #settings = new PlaybackSettings(this, (message) => this.#session?.post(message));
  #transport = new Transport(this, {
    session: () => this.#session,
    stage: () => this.#stage,
    readySession: () => this.#load.readySession(),
  });
  #controls = new PlayerControls(
    this,
    () => ({
      time: this.#transport.time,
      seekFrom: this.#transport.seekFrom,
      fps: this.#stage.fps,
      issues: this.#variables.issues,
      errors: this.#errorLog.messages,
    }),
    (seconds) => this.#transport.seekQuietly(seconds),
  );
  #project = new ProjectFiles(this);
  /** The session on stage. */
  get #session(): FrameSession | undefined {
    return this.#loader.session;
  }

  constructor() {
    super();
    new FocusGuard(this);
  }

  /** `error` events since the current source started loading, newest last (at most 20), heard or not. */
  get errors(): readonly FxErrorDetail[] {
    return this.#errorLog.errors;
  }

  /** @internal Counts the page's `ready` and `error` listeners too (unheard-events.ts). */
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(type, listener as EventListenerOrEventListenerObject, options);
    this.#unheard.added(type, listener, options);
  }

  /** @internal */
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void {
    super.removeEventListener(type, listener as EventListenerOrEventListenerObject, options);
    this.#unheard.removed(type, listener);
  }

  get declarations(): VariableDeclaration[] {
    return this.#metadata?.variables ?? [];
  }
  get metadata(): CompositionMetadata | undefined {
    return this.#metadata;
  }
  get currentTime(): number {
    return this.#transport.currentTime;
  }
  set currentTime(seconds: number) {
    this.#transport.currentTime = seconds;
  }
  get duration(): number {
    return this.#load.duration;
  }
  get paused(): boolean {
    return this.#transport.paused;
  }
  get ready(): boolean {
    return this.#load.ready;
  }
  get ended(): boolean {
    return this.ready && this.paused && this.#transport.time >= this.#load.duration;
  }
  // HTMLMediaElement-shaped extras, so media-chrome and similar controllers can drive the element.
  get seeking(): boolean {
    return this.#transport.status.seeking;
  }
  get readyState(): number {
    return this.#transport.status.readyState(this.ready);
  }
  get networkState(): number {
    return this.#load.networkState;
  }
  get seekable(): TimeRanges {
    return timeRanges(this.ready ? this.#load.duration : 0);
  }
  get buffered(): TimeRanges {
    return this.seekable;
  }
  get variablesRead(): string[] {
    return [...(this.#session?.reads ?? [])];
  }
  get playbackRate(): number {
    return this.#settings.rate;
  }
  set playbackRate(rate: number) {
    this.#settings.rate = rate;
    this.requestUpdate();
  }
  get defaultPlaybackRate(): number {
    return this.#settings.defaultRate;
  }
  set defaultPlaybackRate(rate: number) {
    this.#settings.defaultRate = rate;
  }
  get volume(): number {
    return this.#settings.volume;
  }
  set volume(volume: number) {
    this.#settings.volume = volume;
    this.requestUpdate();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the DOM: the frame was dropped on disconnect, so load again.
    if (this.hasUpdated && !this.#session) void this.#loader.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#transport.left();
    this.#readReports.cancel();
    this.#load.left();
  }

  // Loading starts before render so its first state (loading, not ready) lands in this same update.
  protected override willUpdate(changed: PropertyValues<this>): void {
    // The first load carries the variables; later changes go to the frame live.
    if (changed.has('src') || changed.has('srcdoc') || changed.has('allowCompositionReadsUnder'))
      void this.#loader.load();
    else if (changed.has('variables')) this.#variables.send();
    // After a load started (in this same task): the refusal belongs to what it loads, and stays in `errors`.
    this.#variables.reportProblem();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (this.#session && (changed.has('muted') || changed.has('loop'))) this.#sendSettings(this.#session);
    // Like HTMLMediaElement, and what media-chrome listens to; not for the initial value.
    if (changed.has('muted') && changed.get('muted') !== undefined) emit(this, FxCompositionEvent.volumeChange);
  }

  /** Hands `session` the settings the frame applies itself. */
  #sendSettings(session: FrameSession): void {
    for (const message of this.#settings.messages(this)) session.post(message);
  }

  /** Starts playback (once ready). */
  play(): Promise<void> {
    this.#transport.play();
    return Promise.resolve();
  }

  pause(): void {
    this.#transport.pause();
  }

  get dependencies(): ProjectDependency[] {
    return this.#project.dependencies;
  }

  /**
   * Fetches the files the composition uses (with the current variables' image and font files) as `{ path, data }`
   * entries for `zipProject(files, { ignore: false })`, the entry as `index.html`. `extraFiles` adds what scripts
   * load by URLs the compiler cannot see. Rejects with a `ZipError` (`project_not_loaded`,
   * `project_file_unavailable`).
   */
  projectFiles(options?: ProjectFilesOptions): Promise<ProjectEntry[]> {
    return this.#project.fetch(options);
  }

  /**
   * Exports the composition as a video file made in this page, no render service (docs/export.md): `exportVideo(this,
   * options)`. The preview plays on meanwhile.
   */
  exportVideo(options?: ExportVideoOptions): Promise<ExportVideoResult> {
    return exportVideo(this, options);
  }

  /** The composition at `time` (seconds) as an image, made in this page: `captureFrame(this, time, options)`. */
  captureFrame(time: number, options?: CaptureFrameOptions): Promise<Blob> {
    return captureFrame(this, time, options);
  }

  /** @internal An export frame of its own (src/export: `exportVideo`, `captureFrame`). */
  [OPEN_CAPTURE](request: CaptureRequest): Promise<CaptureFrame> {
    const element = this;
    return openCaptureFrame(
      {
        get variables() {
          return element.variables;
        },
        get dependencies() {
          return element.dependencies;
        },
        compile: (values, fps, signal) => this.#loader.compileForCapture(values, fps, signal),
        mount: (iframe, stage) => {
          this.#layout.place(iframe, stage);
          this.stage.append(iframe);
        },
      },
      request,
    );
  }

  /**
   * Seeks to `seconds` (quantized to the frame grid); resolves with the landed time once that frame is on screen:
   * painted and composited into the page (a scrub's seeks, each within 100 ms of the last answer, once painted).
   */
  seek(seconds: number): Promise<number> {
    return this.#transport.seek(seconds);
  }

  /** The frame's `ready`, read for what only the frame knows (values and their issues); the rest comes from `known`. */
  #onReady(ready: ReadyMessage, keep: Playhead | undefined, known: CompositionMetadata): void {
    const stage = stageOf(known);
    this.#stage = stage;
    this.#metadata = known;
    this.#transport.arrived(keep, stage);
    if (this.#session) this.#layout.show(this.#session.iframe, stage);
    this.#load.shown(stage.duration, !keep);
    this.#unheard.ready();
    emit(this, FxCompositionEvent.ready);
    // Another document on stage: what its scripts read (so far) replaces what the last one's did.
    this.#readReports.cancel();
    emit(this, FxCompositionEvent.variablesRead);
    this.#variables.shown(ready.values, ready.issues, false);
    this.#transport.resume(keep, this.#viewport.visible);
  }

  /** Everything here may be forged by the composition: times are clamped, texts and lists bounded (frame-reports.ts). */
  #onFrameMessage(session: FrameSession, message: FrameMessage): void {
    // Script errors count while the frame still loads (most happen then); everything else once it is on stage.
    // (A session is on stage or incoming: the others are disposed and hear nothing.)
    if (message.type === Message.error) return void emit(this, FxCompositionEvent.error, trustedError(message));
    if (session !== this.#session) return;
    switch (message.type) {
      case Message.time:
        return this.#transport.reported(clampTime(message.time, this.#stage), message.paused);
      // FrameSession passes on only reports that added ids.
      case Message.reads:
        return this.#readReports.push(() => true);
      case Message.ended:
        return this.#transport.ended();
      // Only answers to a `set-variables` get here (FrameSession drops the others), so a reload follows a change.
      case Message.variables:
        return this.#variables.answered(message);
    }
  }

  #fail(code: string, message: string): void {
    this.#load.failed(code, message);
    emit(this, FxCompositionEvent.error, { code, message });
  }

  protected override render() {
    const view = { poster: this.poster, ready: this.ready, load: this.#load.state, controls: this.controls };
    return renderStage({ ...view, errors: this.#errorLog.errors }, this.#controls.render());
  }
}

// Typed listeners for the element's own events (merged into the class, as lib.dom types HTMLMediaElement's).
export interface FxComposition {
  addEventListener<K extends keyof FxCompositionEventMap>(
    type: K,
    listener: (this: FxComposition, event: FxCompositionEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof FxCompositionEventMap>(
    type: K,
    listener: (this: FxComposition, event: FxCompositionEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}
