import type { ReactiveElement } from 'lit';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import type { Issue } from '../../runtime/issues.js';
import { Message, type HostMessage, type VariablesMessage } from '../../runtime/protocol/messages.js';
import { FxCompositionErrorCode, FxCompositionEvent } from '../internal/constants.js';
import { emit, emitIssues } from '../internal/events.js';
import { hasFontSources, inlineFontSources } from './font-sources.js';
import { trustedIssues, trustedValues } from './frame-reports.js';
import { sameValues } from '../internal/values-equal.js';
import { readVariables } from './variables-input.js';

/** What `String({})` gives: an object property a server render wrote into the attribute. */
const STRINGIFIED_OBJECT = '[object Object]';

/** The element, as far as its variables go. */
export interface VariablesHost extends ReactiveElement {
  /** A frame is on stage and ready: values go to it live (else the next load carries them). */
  readonly ready: boolean;
  readonly declarations: VariableDeclaration[];
}

/** A frame being loaded, as far as the variables go. */
export interface LoadingFrame {
  setVariables(values: Record<string, unknown>): Promise<VariablesMessage | undefined>;
}

/** What a frame shows once caught up: the frame's report, and the values in effect it was given (`applied`). */
export interface ShownValues {
  readonly values: Record<string, unknown>;
  readonly issues: readonly Issue[];
  readonly applied: Record<string, unknown>;
}

/** The loader, as far as the variables go. */
export interface VariablesFrame {
  /** What font sources resolve against. */
  readonly base: string;
  readonly session: { post(message: HostMessage): void } | undefined;
  /** Loads the values into a new frame behind the one on stage (its scripts read them at load). */
  scheduleReload(): void;
}

/**
 * The `variables` attribute and property: the values in effect (always a JSON object within the value bounds, see
 * {@link readVariables}), refused inputs reported as `error` events, changes sent to the frame live. It has no
 * lifecycle hooks: the host calls it from `willUpdate`, where a refusal is reported once a load it comes with has
 * started (controllers' `hostUpdate` runs after `willUpdate`).
 */
export class LiveVariables {
  #values: Record<string, unknown> = {};
  /** What the frame on stage reported of applying the values (the controls' hint). */
  #issues: readonly Issue[] = [];
  /** Why the latest input was refused, until the next update reports it. */
  #problem: string | undefined;

  constructor(
    private readonly host: VariablesHost,
    private readonly frame: VariablesFrame,
  ) {}

  get values(): Record<string, unknown> {
    return this.#values;
  }

  get issues(): readonly Issue[] {
    return this.#issues;
  }

  /**
   * What a frame on stage shows, as it reported it (its `ready`, or an answer to a change): `variableschange`.
   * Forgeable, so read through frame-reports.ts.
   */
  shown(values: Readonly<Record<string, unknown>>, issues: readonly Issue[], reloading: boolean): void {
    this.#issues = trustedIssues(issues);
    this.host.requestUpdate();
    emit(this.host, FxCompositionEvent.variablesChange, {
      values: trustedValues(values, this.host.declarations, this.#values),
      issues: this.#issues,
      reloading,
    });
  }

  /** The frame's answer to a `set-variables`; when its scripts read values at load, a reload follows. */
  answered(message: VariablesMessage): void {
    const reloading = message.readsVariablesAtLoad && message.ranAgain !== true;
    this.shown(message.values, message.issues, reloading);
    if (reloading) this.frame.scheduleReload();
  }

  /** Takes a `variables` input; the host's update reports a refusal ({@link reportProblem}) or sends the change. */
  set(input: unknown): void {
    // A framework's server render wrote the object as a string (Svelte's SSR does); its property set on hydration
    // follows with the real value, so this is no mistake of the page's to report.
    if (input === STRINGIFIED_OBJECT) return;
    let read: ReturnType<typeof readVariables>;
    try {
      read = readVariables(input);
      // Equal by content (a re-render's new object): keep the object in effect, which a font fetch may be keyed on.
      if ('values' in read && sameValues(read.values, this.#values)) return;
    } catch (error) {
      // A Proxy or getter of the caller's that throws while being read.
      read = { problem: `"variables" could not be read: ${(error as Error)?.message ?? String(error)}` };
    }
    if ('problem' in read) {
      this.#problem = read.problem;
      this.host.requestUpdate();
      return;
    }
    const old = this.#values;
    this.#values = read.values;
    this.host.requestUpdate('variables', old);
  }

  /** A refused input as an `error` event; the values in effect stay. */
  reportProblem(): void {
    const problem = this.#problem;
    this.#problem = undefined;
    if (problem)
      emit(this.host, FxCompositionEvent.error, {
        code: FxCompositionErrorCode.variablesJsonInvalid,
        message: problem,
      });
  }

  /** Sends the values in effect to the frame on stage, once their font sources are inlined. */
  send(): void {
    const variables = this.#values;
    const { host } = this;
    if (!host.ready) return;
    // Fast path: nothing to fetch, so the frame gets the values in this same task.
    if (!hasFontSources(variables, host.declarations)) return this.#post(variables);
    void inlineFontSources(variables, host.declarations, this.frame.base).then(({ values, issues }) => {
      if (this.#values !== variables) return;
      emitIssues(this.host, issues);
      this.#post(values);
    });
  }

  /**
   * Brings a frame that a load prepared with `loaded` up to the values in effect, set while it loaded (several sets:
   * the latest), in place. Resolves with what it then shows (`shown` when nothing changed), or `undefined` when its
   * scripts read values at load and could not run again in place: a new frame must load them.
   */
  async catchUp(
    frame: LoadingFrame,
    loaded: Record<string, unknown>,
    shown: Omit<ShownValues, 'applied'>,
  ): Promise<ShownValues | undefined> {
    let applied = loaded;
    let report = shown;
    while (!sameValues(applied, this.#values)) {
      applied = this.#values;
      const values = await this.#withFonts(applied);
      if (applied !== this.#values) continue;
      const answer = await frame.setVariables(values).catch((error) => this.#refused(error));
      // No answer (a frame that stopped talking, values that cannot be cloned): it shows what it showed.
      if (!answer) return { ...report, applied: loaded };
      if (answer.readsVariablesAtLoad && answer.ranAgain !== true) return undefined;
      report = answer;
      loaded = applied;
    }
    return { ...report, applied };
  }

  /** `values` with their font sources inlined, reporting refused ones. */
  async #withFonts(values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { declarations } = this.host;
    if (!hasFontSources(values, declarations)) return values;
    const inlined = await inlineFontSources(values, declarations, this.frame.base);
    emitIssues(this.host, inlined.issues);
    return inlined.values;
  }

  #post(values: Record<string, unknown>): void {
    try {
      this.frame.session?.post({ type: Message.setVariables, values });
    } catch (error) {
      this.#refused(error);
    }
  }

  /** Values the frame cannot take: functions, symbols and DOM nodes cannot be cloned into it. */
  #refused(error: unknown): undefined {
    emit(this.host, FxCompositionEvent.error, {
      code: FxCompositionErrorCode.variablesNotCloneable,
      message: `"variables" must hold JSON-like values: ${(error as Error).message}`,
    });
    return undefined;
  }
}
