import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { mount, nextEvent, whenReady } from './helpers.js';

const composition = (body: string) =>
  `<div data-composition-id="m" data-width="320" data-height="180" data-duration="1">${body}</div>`;

describe('<fx-composition> naming a file its project does not have', () => {
  it('fires error "project_file_missing" naming the file and where, then still gets ready', async () => {
    const el = mount({}, { srcdoc: composition('<p>kept</p><img src="fixtures-nowhere/logo.png">') });
    const error = nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    await whenReady(el);
    const { detail } = await error;
    expect(detail.code).to.equal('project_file_missing');
    expect(detail.message).to.contain('"fixtures-nowhere/logo.png"').and.to.contain('<img src>');
    expect(el.metadata!.issues.map((found) => found.code)).to.include('project_file_missing');
  });

  it('an <img crossorigin> above the inline limit: error "image_too_large", as the render refuses it', async () => {
    // 5 MB: past the 4 MiB a file the compiler inlines; the frame's opaque origin gets no CORS answer for it.
    const el = mount({}, { srcdoc: composition('<img crossorigin src="/test/fixtures/no-cors/large/5000000.png">') });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
    expect(detail.code).to.equal('image_too_large');
    expect(detail.message).to.contain('/test/fixtures/no-cors/large/5000000.png');
  });
});
