// <fx-render-button>'s attributes of stills, GIFs, ranges, thumbnails and metadata, in a real browser against the
// real service: each becomes its wire field in the submit; a value the button cannot read, or the service would
// refuse, is shown with its code through the `error` event before anything is sent or a sign-in window opens.
import { expect } from '@open-wc/testing';
import { FxRenderButtonAttribute } from '../../src/elements/render-button/constants.js';
import type { FxRenderButton } from '../../src/elements/render-button/fx-render-button.js';
import { userClick } from '../user-click.js';
import { outcome, setup as setupWith, startService, type TestService } from './render-button-helpers.js';
import { SERVICE_START_TIMEOUT_MS } from '../auth/fixtures/test-config.js';

let service: TestService;

before(async function () {
  this.timeout(SERVICE_START_TIMEOUT_MS);
  service = await startService('render-button-options');
});

/** The button, its attributes set as a page would write them. */
async function setup(attributes: Record<string, string>) {
  const found = await setupWith(service);
  found.button.removeAttribute('fps');
  for (const [name, value] of Object.entries(attributes)) found.button.setAttribute(name, value);
  await found.button.updateComplete;
  return found;
}

/** Every request to the service from now on, with the submit bodies. */
function watchRequests() {
  const urls: string[] = [];
  const submits: Record<string, unknown>[] = [];
  const original = window.fetch;
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.href.startsWith(service.url)) urls.push(url.pathname);
    if (init?.method === 'POST' && url.pathname.endsWith('/v3/renders')) submits.push(JSON.parse(String(init.body)));
    return original.call(window, input, init);
  };
  return { urls, submits, stop: () => (window.fetch = original) };
}

/** Clicks, cancels once submitted (the fields are what is tested, not the render), and resolves with the submit. */
async function submitted(button: FxRenderButton, part: (name: string) => HTMLElement | null) {
  const requests = watchRequests();
  try {
    button.addEventListener('renderprogress', (event) => event.detail.stage === 'queued' && button.cancel());
    const ended = outcome(button);
    await userClick(part('button')!);
    const event = await ended;
    expect(requests.submits.length, JSON.stringify(event.detail)).to.equal(1);
    return requests.submits[0]!;
  } finally {
    requests.stop();
  }
}

describe('<fx-render-button> stills, GIFs, ranges, metadata', () => {
  it('format gif, fps, range, thumbnail-time, no-loop and metadata become the wire fields', async function () {
    this.timeout(60_000);
    const { button, part } = await setup({
      [FxRenderButtonAttribute.format]: 'gif',
      [FxRenderButtonAttribute.fps]: '10',
      [FxRenderButtonAttribute.range]: '0.5:1.5',
      [FxRenderButtonAttribute.thumbnailTime]: '1',
      [FxRenderButtonAttribute.noLoop]: '',
      [FxRenderButtonAttribute.metadata]: '{"order":"A-17","tags":["x"]}',
    });
    const body = await submitted(button, part);
    expect(body).to.include({ format: 'gif', fps: 10, thumbnail_time: 1, loop: false });
    expect(body.range).to.deep.equal({ start: 0.5, end: 1.5 });
    expect(body.metadata).to.deep.equal({ order: 'A-17', tags: ['x'] });
    await expect(button).to.be.accessible();
  });

  it('a still: format png at time; no fps sent (the service picks the format’s)', async function () {
    this.timeout(60_000);
    const { button, part } = await setup({
      [FxRenderButtonAttribute.format]: 'png',
      [FxRenderButtonAttribute.time]: '2',
    });
    const body = await submitted(button, part);
    expect(body).to.include({ format: 'png', time: 2 });
    expect('fps' in body || 'loop' in body || 'range' in body).to.equal(false);
  });

  it('the metadata property takes an object from script', async function () {
    this.timeout(60_000);
    const { button, part } = await setup({});
    button.metadata = { campaign: 7 };
    const body = await submitted(button, part);
    expect(body.metadata).to.deep.equal({ campaign: 7 });
  });

  const refusals: [string, Record<string, string>, string][] = [
    ['range not start:end', { range: '1.5-4' }, 'render_button_attribute_invalid'],
    ['range of words', { range: 'a:b' }, 'render_button_attribute_invalid'],
    ['metadata not JSON', { metadata: '{order:' }, 'render_button_attribute_invalid'],
    ['metadata not an object', { metadata: '["A-17"]' }, 'render_button_attribute_invalid'],
    ['a format the service lacks', { format: 'avi' }, 'parameter_invalid'],
    ['time not a number', { format: 'png', time: 'soon' }, 'parameter_invalid'],
    ['gif at 4k', { format: 'gif', resolution: '4k' }, 'resolution_format_unsupported'],
    ['time with mp4', { time: '1' }, 'parameter_conflict'],
    ['no-loop with mp4', { 'no-loop': '' }, 'parameter_conflict'],
    ['a range that ends before it starts', { range: '3:1' }, 'parameter_invalid'],
    ['metadata over 4 KiB', { metadata: JSON.stringify({ note: 'x'.repeat(4100) }) }, 'metadata_too_large'],
    ['a still past the end', { format: 'jpeg', time: '60' }, 'time_outside_duration'],
    ['a range past the end', { range: '1:60' }, 'range_outside_duration'],
  ];
  for (const [name, attributes, code] of refusals) {
    it(`${name}: ${code} shown, nothing sent, no sign-in window`, async () => {
      const { button, part } = await setup(attributes);
      const requests = watchRequests();
      const opened: unknown[] = [];
      const open = window.open;
      window.open = (...args: Parameters<typeof window.open>) => (opened.push(args), null);
      try {
        const ended = outcome(button);
        await userClick(part('button')!);
        const event = await ended;
        expect(event.type).to.equal('error');
        expect(event.detail.code).to.equal(code);
        expect(part('error')!.textContent).to.contain(code);
        expect(part('error')!.getAttribute('role')).to.equal('alert');
        expect(requests.urls).to.deep.equal([]);
        expect(opened).to.deep.equal([]);
      } finally {
        window.open = open;
        requests.stop();
      }
    });
  }
});
