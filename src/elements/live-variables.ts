import type { ReactiveElement } from 'lit';
import type { VariableDeclaration } from '../runtime/declarations.js';
import { Message, type HostMessage } from '../runtime/protocol-messages.js';
import { FxErrorCode, FxEvent } from './constants.js';
import { emit, emitIssues } from './events.js';
import { hasFontSources, inlineFontSources } from './font-sources.js';
import { sameValues } from './values-equal.js';
import { readVariables } from './variables-input.js';

/** What the variables need of the frame on stage. */
export interface VariablesFrame {
  /** A frame is on stage and ready: values go to it live (else the next load carries them). */
  ready(): boolean;
  declarations(): VariableDeclaration[];
  /** What font sources resolve against. */
  base(): string;
  post(message: HostMessage): void;
}

/**
 * The `variables` attribute and property: the values in effect (always a JSON object within the value bounds, see
 * {@link readVariables}), refused inputs reported as `error` events, changes sent to the frame live. It has no
 * lifecycle hooks: the host calls it from `willUpdate`, where a refusal must be reported before a load starts
 * (controllers' `hostUpdate` runs after `willUpdate`).
 */
export class LiveVariables {
  #values: Record<string, unknown> = {};
  /** Why the latest input was refused, until the next update reports it. */
  #problem: string | undefined;

  constructor(
    private readonly host: ReactiveElement,
    private readonly frame: VariablesFrame,
  ) {}

  get values(): Record<string, unknown> {
    return this.#values;
  }

  /** Takes a `variables` input; the host's update reports a refusal ({@link reportProblem}) or sends the change. */
  set(input: unknown): void {
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
    if (problem) emit(this.host, FxEvent.error, { code: FxErrorCode.variablesJsonInvalid, message: problem });
  }

  /** Sends the values in effect to the frame on stage, once their font sources are inlined. */
  send(): void {
    const variables = this.#values;
    const { frame } = this;
    if (!frame.ready()) return;
    // Fast path: nothing to fetch, so the frame gets the values in this same task.
    if (!hasFontSources(variables, frame.declarations())) return this.#post(variables);
    void inlineFontSources(variables, frame.declarations(), frame.base()).then(({ values, issues }) => {
      if (this.#values !== variables) return;
      emitIssues(this.host, issues);
      this.#post(values);
    });
  }

  #post(values: Record<string, unknown>): void {
    try {
      this.frame.post({ type: Message.setVariables, values });
    } catch (error) {
      // Functions, symbols and DOM nodes cannot cross into the frame.
      emit(this.host, FxEvent.error, { code: FxErrorCode.variablesNotCloneable, message: `"variables" must hold JSON-like values: ${(error as Error).message}` });
    }
  }
}
