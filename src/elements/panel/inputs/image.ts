import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { blobToDataUrl, isRecord } from '../../../runtime/data.js';
import type { ImageDeclaration } from '../../../runtime/declarations.js';
import { groupLabel, groupLabelId, type InputRenderer, targetOf } from './types.js';

const urlOf = (value: unknown) =>
  typeof value === 'string' ? value : isRecord(value) && typeof value.url === 'string' ? value.url : '';

/**
 * The first image among dropped or chosen files as a `data:` URL (anything else is ignored): the composition's
 * opaque-origin frame cannot load the page's `blob:` URLs, and a `data:` URL travels in the copied values too.
 */
async function imageUrl(files: FileList | null | undefined): Promise<string | undefined> {
  const file = [...(files ?? [])].find((candidate) => candidate.type.startsWith('image/'));
  return file ? blobToDataUrl(file) : undefined;
}

/** A URL entry, a file picker, and the whole group as a drop target for an image file. */
export const imageInput: InputRenderer<ImageDeclaration> = ({
  declaration,
  value,
  controlId,
  describedBy,
  invalid,
  set,
  tools,
}) => {
  const put = async (url: Promise<string | undefined>) => {
    const read = await url;
    if (read !== undefined) set(read);
  };
  return html`<fieldset
    part="group drop-zone"
    aria-labelledby=${groupLabelId(controlId)}
    @dragover=${(event: DragEvent) => event.preventDefault()}
    @drop=${(event: DragEvent) => {
      event.preventDefault();
      void put(imageUrl(event.dataTransfer?.files));
    }}
  >
    ${groupLabel(declaration, controlId)}
    <div part="control" class="control">
      <input
        part="input"
        id=${controlId}
        type="url"
        aria-label="Image URL"
        .value=${live(urlOf(value))}
        aria-describedby=${describedBy}
        aria-invalid=${invalid ? 'true' : 'false'}
        @input=${(event: Event) => set(targetOf(event).value)}
      />
      <input
        part="input file"
        id=${`${controlId}-file`}
        type="file"
        accept="image/*"
        aria-label="Image file (or drop one here)"
        @change=${(event: Event) => void put(imageUrl(targetOf(event).files))}
      />
    </div>
    ${tools}
  </fieldset>`;
};
