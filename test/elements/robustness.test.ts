import { expect } from '@open-wc/testing';
import type { FxErrorDetail } from '../../src/elements/internal/events.js';
import { isFrameMessage } from '../../src/runtime/protocol/host.js';
import { compositionHtml, mount, nextEvent, sleep, watchUncaught, whenReady } from './helpers.js';

describe('<fx-composition> under bad input', () => {
  for (const src of ['http://[', 'https://exa mple.com:99999/x']) {
    it(`a malformed src ${JSON.stringify(src)} is an error event "src_invalid", not an uncaught exception`, async () => {
      const uncaught = watchUncaught();
      const el = mount({ src });
      const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
      expect(detail.code).to.equal('src_invalid');
      await sleep(50);
      uncaught.stop();
      expect(uncaught.errors).to.deep.equal([]);
    });
  }

  it('seek() rejects with the load error instead of hanging when loading fails', async () => {
    const el = mount({ src: '/test/fixtures/does-not-exist.html' });
    const error = await el.seek(1).then(
      () => undefined,
      (caught: { code?: string }) => caught,
    );
    expect(error?.code).to.equal('composition_not_found');
  });

  it('seek() rejects with "disconnected" when the element is removed before it is ready', async () => {
    const el = mount({}, { srcdoc: compositionHtml() });
    const pending = el.seek(1).then(
      () => undefined,
      (caught: { code?: string }) => caught,
    );
    el.remove();
    expect((await pending)?.code).to.equal('disconnected');
  });

  for (const [name, value] of [
    ['a function', () => 1],
    ['a symbol', Symbol('x')],
    ['a DOM node', document.createElement('div')],
  ] as const) {
    it(`variables holding ${name} give an error event "variables_not_cloneable" and no uncaught exception`, async () => {
      const el = await whenReady(mount({}, { srcdoc: compositionHtml() }));
      const uncaught = watchUncaught();
      el.variables = { title: value };
      const { detail } = await nextEvent<CustomEvent<FxErrorDetail>>(el, 'error');
      expect(detail.code).to.equal('variables_not_cloneable');
      uncaught.stop();
      expect(uncaught.errors).to.deep.equal([]);
    });
  }

  it('a lazy element loads the src set while it was off screen once it becomes visible', async () => {
    const spacer = document.createElement('div');
    spacer.style.height = '5000px';
    document.body.prepend(spacer);
    try {
      const el = mount({ loading: 'lazy' }, { srcdoc: compositionHtml() });
      await sleep(100);
      expect(el.ready).to.equal(false);
      spacer.remove();
      await nextEvent(el, 'ready');
      expect(el.ready).to.equal(true);
    } finally {
      spacer.remove();
    }
  });

  it('the protocol refuses a ready message with a zero or absurd size or frame rate', () => {
    const ready = {
      type: 'ready',
      duration: 1,
      fps: 30,
      width: 320,
      height: 180,
      declarations: [],
      values: {},
      issues: [],
      readsVariablesAtLoad: false,
    };
    expect(isFrameMessage(ready)).to.equal(true);
    for (const broken of [
      { width: 0 },
      { height: -1 },
      { fps: 0 },
      { fps: 1000 },
      { width: 1e9 },
      { height: Number.NaN },
    ]) {
      expect(isFrameMessage({ ...ready, ...broken }), JSON.stringify(broken)).to.equal(false);
    }
  });
});
