import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { compositionHtml, mount, nextEvent, sleep, watchUncaught, whenReady } from '../elements/helpers.js';

describe('security: <fx-composition> hostile input from the host side', () => {
  it('currentTime set before ready, then a failing load, leaves no unhandled rejection', async () => {
    const uncaught = watchUncaught();
    const el = mount({ src: '/test/fixtures/does-not-exist.html' });
    el.currentTime = 1;
    await nextEvent(el, 'error');
    await sleep(100);
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
  });

  it('the scrubber moved before ready, then a failing load, leaves no unhandled rejection', async () => {
    const uncaught = watchUncaught();
    const el = mount({ src: '/test/fixtures/does-not-exist.html', controls: true });
    await el.updateComplete;
    const scrubber = el.shadowRoot!.querySelector<HTMLInputElement>('[part="scrubber"]')!;
    scrubber.dispatchEvent(new Event('input'));
    await nextEvent(el, 'error');
    await sleep(100);
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
  });

  /** `{"a":{"a":…1…}}`, `depth` levels deep. */
  const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('a 20 000-level nested variables attribute is refused at once, and the preview still gets ready', async () => {
    const el = mount({ variables: nestedJson(20000) }, { srcdoc: compositionHtml() });
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error', 2000);
    expect(detail.code).to.equal('variables_json_invalid');
    await whenReady(el);
  });

  it('a 20 000-level nested variables property is refused at once, and the preview still gets ready', async () => {
    const el = mount({}, { srcdoc: compositionHtml() });
    el.variables = JSON.parse(nestedJson(20000)) as Record<string, unknown>;
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error', 2000);
    expect(detail.code).to.equal('variables_json_invalid');
    await whenReady(el);
  });

  it('a deeply nested variables property set live is refused at once', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml() }));
    el.variables = JSON.parse(nestedJson(20000)) as Record<string, unknown>;
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error', 2000);
    expect(detail.code).to.equal('variables_json_invalid');
  });

  it('a variables array of 2^27 holes is refused without walking it', async () => {
    const el = await whenReady(mount({}, { srcdoc: compositionHtml() }));
    const holes: unknown[] = [];
    holes.length = 2 ** 27;
    el.variables = { list: holes };
    const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error', 2000);
    expect(detail.code).to.equal('variables_json_invalid');
  });
});
