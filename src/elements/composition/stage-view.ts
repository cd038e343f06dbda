/** What `<fx-composition>` renders: the stage its frame goes into, and the notices over it (poster, status, errors). */
import { html, nothing, type TemplateResult } from 'lit';
import type { FxErrorDetail } from '../internal/events.js';
import type { LoadState } from './load-status.js';

/** What the stage shows, as the element knows it. */
export interface StageView {
  readonly poster: string;
  readonly ready: boolean;
  readonly load: LoadState;
  /** The built-in controls show the errors themselves. */
  readonly controls: boolean;
  readonly errors: readonly FxErrorDetail[];
}

/** The stage, the poster until ready, the loading or failure notice, the controls (`controls`) and the error hint. */
export function renderStage(view: StageView, controls: TemplateResult | typeof nothing): TemplateResult {
  const showPoster = view.poster && !view.ready;
  return html`
    <div part="stage" class="stage"></div>
    ${showPoster ? html`<img part="poster" class="poster" src=${view.poster} alt="" />` : nothing}
    ${view.load.kind === 'loading' ? html`<div part="status" class="status" role="status">Loading&hellip;</div>` : nothing}
    ${view.load.kind === 'error' ? html`<div part="status" class="status error" role="alert">${view.load.message}</div>` : nothing}
    ${controls} ${stageErrors(view)}
  `;
}

/** Without controls (they show it themselves) and unless a failed load says so already: the latest error. */
function stageErrors({ controls, errors, load }: StageView) {
  const latest = errors.at(-1);
  if (controls || !latest || load.kind === 'error') return nothing;
  return html`<span
    part="errors"
    class="stage-errors"
    role="status"
    title=${errors.map((error) => error.message).join('\n')}
    >&#x26a0; ${latest.message}</span
  > `;
}
