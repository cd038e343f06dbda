/** The declarations a panel shows and the HTML carrying them: read once per source, rewritten by edits, undone. */
import type { ReactiveControllerHost } from 'lit';
import type { VariableDeclaration } from '../../runtime/declarations.js';
import { FxError, isFxError } from '../../runtime/errors.js';
import { extractCompositionMetadata } from '../../runtime/metadata.js';
import type { FxComposition } from '../composition/fx-composition.js';
import { unreadDeclarations, unreadProblem } from '../internal/unread-declarations.js';
import { FxVariablesPanelErrorCode, FxVariablesPanelEvent } from './constants.js';
import { checkedList } from './declaration-edit.js';
import { writeDeclarations } from './declarations-html.js';
import { UndoHistory } from './history.js';
import { compositionReads, type CompositionReads } from './reads.js';
import { readSource } from './source.js';

/** `declarationschange`'s detail: the new list and the composition's HTML carrying it. */
export interface DeclarationsChangeDetail {
  readonly declarations: readonly VariableDeclaration[];
  readonly html: string;
}

/** One step of the declaration history. */
interface Snapshot {
  readonly declarations: readonly VariableDeclaration[];
  readonly html: string | undefined;
}

const NO_READS: CompositionReads = { unused: new Set(), undeclared: [] };

export interface SourceEvents {
  /** The bound composition. */
  composition(): FxComposition | null;
  /** An edit, undo or redo dropped (or retyped) these declarations: their overrides would now be refused. */
  dropped(declarations: readonly VariableDeclaration[]): void;
}

/**
 * What the panel shows of the declarations: the composition's, parsed from its source by the composition's own
 * parser (read once per source, its `src` or its `srcdoc` text, so a reload is not re-read), or the panel's edit of
 * them, with the HTML that carries them and what lint says reads them. Each edit is a step of the undo history and
 * is handed on: `declarationschange`, and the composition's `srcdoc` unless cancelled. A change asks for an update.
 */
export class DeclarationSource {
  #shown: readonly VariableDeclaration[] = [];
  #html: string | undefined;
  #problem: string | undefined;
  #reads: CompositionReads = NO_READS;
  #history = new UndoHistory<Snapshot>({ declarations: [], html: undefined });
  /** Which composition source was read last (its `src`, or its `srcdoc` text). */
  #key: string | undefined;
  #reading: AbortController | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly events: SourceEvents,
  ) {}

  get shown(): readonly VariableDeclaration[] {
    return this.#shown;
  }
  /** The composition's HTML with the shown declarations; `undefined` until its source was read. */
  get html(): string | undefined {
    return this.#html;
  }
  /** Why declarations cannot be edited (the source could not be read, or holds declarations it cannot read). */
  get problem(): string | undefined {
    return this.#problem;
  }
  /** Lint's unused and undeclared ids of the HTML shown. */
  get reads(): CompositionReads {
    return this.#reads;
  }
  get canUndo(): boolean {
    return this.#history.canUndo;
  }
  get canRedo(): boolean {
    return this.#history.canRedo;
  }

  #set(shown: readonly VariableDeclaration[], html: string | undefined, problem: string | undefined): void {
    const changed = shown !== this.#shown || html !== this.#html || problem !== this.#problem;
    this.#shown = shown;
    this.#html = html;
    this.#problem = problem;
    if (changed) this.host.requestUpdate();
  }

  /** Reads the composition's source unless it is the one read last; true when it starts over (another source). */
  read(composition: FxComposition): boolean {
    const key = composition.src || composition.srcdoc || '';
    if (key === this.#key) return false;
    this.#key = key;
    this.#set(composition.declarations, undefined, undefined);
    this.#reads = NO_READS;
    this.#reading?.abort();
    const reading = (this.#reading = new AbortController());
    readSource(composition, reading.signal).then(
      (source) => {
        if (reading.signal.aborted) return;
        // The composition's own parser over the same text: the declarations it shows, before it even compiled.
        const { variables: declarations, issues } = extractCompositionMetadata(source);
        const unread = unreadDeclarations(issues);
        if (unread.length > 0) return this.#set(declarations, this.#html, unreadProblem(unread));
        this.#history.reset({ declarations, html: source });
        this.#set(declarations, source, this.#problem);
        this.#reads = compositionReads(source, new Set(declarations.map(({ id }) => id)));
        this.host.requestUpdate();
      },
      (error: unknown) => {
        if (!reading.signal.aborted)
          this.#set(this.#shown, this.#html, isFxError(error) ? error.message : String(error));
      },
    );
    return true;
  }

  /** The composition loaded: until its source is read, the declarations it compiled are the ones shown. */
  loaded(composition: FxComposition | null): void {
    if (composition?.metadata && this.#history.current.html === undefined)
      this.#set(composition.declarations, this.#html, this.#problem);
  }

  /** `FxVariablesPanel.setDeclarations`: checks `list`, records the step and hands it on; the HTML carrying it. */
  edit(list: readonly unknown[]): string {
    const checked = checkedList(list);
    if ('issues' in checked) {
      throw new FxError(
        FxVariablesPanelErrorCode.declarationsInvalid,
        `the declarations are not valid: ${checked.issues.map((found) => found.message).join('; ')}`,
        { issues: checked.issues },
      );
    }
    if (this.#html === undefined)
      throw new FxError(
        FxVariablesPanelErrorCode.sourceUnavailable,
        this.#problem ?? 'the composition\'s source has not been read yet: wait for "loadedmetadata"',
      );
    const snapshot = { declarations: checked.declarations, html: writeDeclarations(this.#html, checked.declarations) };
    this.#history.push(snapshot);
    this.#apply(snapshot);
    return snapshot.html;
  }

  /** Steps the declarations back; false when there is nothing to undo. */
  undo(): boolean {
    return this.#step(this.#history.undo());
  }

  redo(): boolean {
    return this.#step(this.#history.redo());
  }

  #step(snapshot: Snapshot | undefined): boolean {
    if (!snapshot) return false;
    this.#apply(snapshot);
    return true;
  }

  /** Shows a step of the history and hands it on: the event, and the composition's `srcdoc` unless cancelled. */
  #apply(snapshot: Snapshot): void {
    const dropped = this.#shown.filter(
      (old) => !snapshot.declarations.some((declaration) => declaration.id === old.id && declaration.type === old.type),
    );
    this.#set(snapshot.declarations, snapshot.html, this.#problem);
    this.#reads =
      snapshot.html === undefined
        ? NO_READS
        : compositionReads(snapshot.html, new Set(snapshot.declarations.map(({ id }) => id)));
    if (snapshot.html === undefined) return;
    const detail: DeclarationsChangeDetail = { declarations: [...snapshot.declarations], html: snapshot.html };
    const event = new CustomEvent(FxVariablesPanelEvent.declarationsChange, {
      bubbles: true,
      composed: true,
      cancelable: true,
      detail,
    });
    const proceed = this.host.dispatchEvent(event);
    this.events.dropped(dropped);
    const composition = this.events.composition();
    if (proceed && composition && !composition.src) {
      this.#key = snapshot.html;
      composition.srcdoc = snapshot.html;
    }
  }
}
