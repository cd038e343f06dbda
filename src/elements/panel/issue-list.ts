import { html, type TemplateResult } from 'lit';
import type { Issue } from '../../runtime/issues.js';

/** Issues as a list with their codes, as lint and the CLI print them: `code: message`. */
export function issueList(id: string, issues: readonly Issue[]): TemplateResult {
  return html`<ul part="issues" class="issues" id=${id}>
    ${issues.map((found) => html`<li part=${`issue ${found.severity}`} data-code=${found.code}><code>${found.code}</code>: ${found.message}</li>`)}
  </ul>`;
}
