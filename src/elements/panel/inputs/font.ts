import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { blobToDataUrl, isRecord } from '../../../runtime/data.js';
import type { FontDeclaration } from '../../../runtime/declarations.js';
import { fontFileType } from '../../../runtime/font-files.js';
import { groupLabel, groupLabelId, type InputRenderer, targetOf } from './types.js';

/** The family and file of a font value (`"Inter"` or `{ name, source }`). */
function fontParts(value: unknown): { name: string; source: string | undefined } {
  if (typeof value === 'string') return { name: value, source: undefined };
  if (isRecord(value))
    return {
      name: typeof value.name === 'string' ? value.name : '',
      source: typeof value.source === 'string' ? value.source : undefined,
    };
  return { name: '', source: undefined };
}

/**
 * A chosen font file as a `data:` URL typed by its bytes: the frame's opaque origin cannot load the page's `blob:`
 * URLs, and a `data:` URL travels in the copied values too. A file that is not a font keeps its own type, which the
 * runtime refuses (`font_source_refused`, shown next to the input).
 */
async function fontSource(file: File): Promise<string> {
  const type = (await fontFileType(file)) ?? (file.type || 'application/octet-stream');
  return blobToDataUrl(new Blob([file], { type }));
}

/** A family name and an optional font file for it. */
export const fontInput: InputRenderer<FontDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) => {
  const { name, source } = fontParts(value);
  const write = (nextName: string, nextSource: string | undefined) =>
    set(nextSource === undefined ? nextName : { name: nextName, source: nextSource });
  return html`<fieldset part="group" aria-labelledby=${groupLabelId(controlId)}>
    ${groupLabel(declaration, controlId)}
    <div part="control" class="control">
      <input
        part="input"
        id=${controlId}
        type="text"
        aria-label="Family"
        .value=${live(name)}
        aria-describedby=${describedBy}
        aria-invalid=${invalid ? 'true' : 'false'}
        @input=${(event: Event) => write(targetOf(event).value, source)}
      />
      <input
        part="input file"
        id=${`${controlId}-file`}
        type="file"
        aria-label="Font file"
        accept=".woff,.woff2,.ttf,.otf,.ttc,font/*"
        @change=${async (event: Event) => {
          const file = targetOf(event).files?.[0];
          if (file) write(name || file.name.replace(/\.[^.]*$/, ''), await fontSource(file));
        }}
      />
      ${source === undefined ? nothing : html`<button part="button" type="button" @click=${() => write(name, undefined)}>Remove file</button>`}
    </div>
    ${tools}
  </fieldset>`;
};
