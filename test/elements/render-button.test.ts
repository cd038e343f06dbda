// <fx-render-button> end to end in real browsers: it signs in through the real authorization server (a popup,
// signing in as `wtr` without a form), zips the embed's files, renders on the real service (FFmpeg test renderer)
// and offers the video. Its own service: the sign-in tests clear their session in this origin's store.
import { expect } from '@open-wc/testing';
import { createBrowserSignIn } from '../../src/auth/sign-in.js';
import { cloudRender } from '../../src/client/cloud-render.js';
import type { FxRenderedDetail } from '../../src/elements/render-button/fx-render-button.js';
import { waitFor } from './helpers.js';
import { SERVICE_START_TIMEOUT_MS } from '../auth/fixtures/test-config.js';
import { fromUserClick, userClick } from '../user-click.js';
import {
  outcome,
  setup as setupWith,
  startService,
  type ButtonAttributes,
  type TestService,
} from './render-button-helpers.js';

let service: TestService;

before(async function () {
  this.timeout(SERVICE_START_TIMEOUT_MS);
  service = await startService('render-button');
});

const setup = (attributes: ButtonAttributes = {}) => setupWith(service, attributes);

describe('<fx-render-button>', () => {
  it('signs in, renders the composition with its current variables, and offers the video', async function () {
    this.timeout(60_000);
    const { button, part } = await setup();
    const stages: string[] = [];
    button.addEventListener('renderprogress', (event) => stages.push(event.detail.stage));
    const ended = outcome(button);
    await userClick(part('button')!);
    await waitFor(() => part('status')?.textContent?.trim(), 'a status while rendering');
    expect(part('button')!.hasAttribute('disabled')).to.equal(true);
    const event = await ended;
    expect(event.type, JSON.stringify(event.detail)).to.equal('rendered');
    const { renderId, blob, render } = event.detail as FxRenderedDetail;
    expect(renderId).to.match(/^rnd_/);
    expect(render!.variables, 'the preview’s current values').to.deep.equal({ title: 'Rendered' });
    expect(render!.fps).to.equal(10);
    // An MP4: its first box is `ftyp`.
    expect(new TextDecoder().decode(new Uint8Array(await blob.slice(4, 8).arrayBuffer()))).to.equal('ftyp');
    expect([...new Set(stages)]).to.include.members(['signing-in', 'zipping', 'uploading', 'queued', 'downloading']);
    const link = part('download') as HTMLAnchorElement;
    expect(link.download).to.equal(`${renderId}.mp4`);
    expect(link.href).to.match(/^blob:/);
    expect(part('button')!.hasAttribute('disabled')).to.equal(false);
    await expect(button).to.be.accessible();
  });

  // WebKit has no VideoEncoder: there this is what every auto button does.
  it('mode="auto" in a browser that cannot export renders on the service instead, signing in from the click', async function () {
    this.timeout(60_000);
    const { button, part } = await setup();
    button.setAttribute('mode', 'auto');
    const encoder = Object.getOwnPropertyDescriptor(globalThis, 'VideoEncoder');
    delete (globalThis as { VideoEncoder?: unknown }).VideoEncoder;
    try {
      const stages: string[] = [];
      button.addEventListener('renderprogress', (event) => stages.push(event.detail.stage));
      const ended = outcome(button);
      await userClick(part('button')!);
      const event = await ended;
      expect(event.type, JSON.stringify(event.detail)).to.equal('rendered');
      const { renderId, render, exported, blob } = event.detail as FxRenderedDetail;
      expect(renderId).to.match(/^rnd_/);
      expect(render!.fps).to.equal(10);
      expect(exported).to.equal(undefined);
      expect(new TextDecoder().decode(new Uint8Array(await blob.slice(4, 8).arrayBuffer()))).to.equal('ftyp');
      expect(stages).to.include.members(['uploading', 'downloading']);
    } finally {
      if (encoder) Object.defineProperty(globalThis, 'VideoEncoder', encoder);
    }
  });

  it('cancel stops the render: an "aborted" error shown with its code, and the button is ready again', async function () {
    this.timeout(60_000);
    const { button, part } = await setup();
    button.addEventListener('renderprogress', (event) => {
      if (event.detail.stage === 'queued') part('cancel')!.click();
    });
    const ended = outcome(button);
    await userClick(part('button')!);
    const event = await ended;
    expect(event.type).to.equal('error');
    expect(event.detail.code).to.equal('aborted');
    expect(part('error')!.textContent).to.contain('aborted');
    expect(part('button')!.hasAttribute('disabled')).to.equal(false);
    expect(part('cancel')).to.equal(null);
  });

  it('looks at the render every `poll-interval` ms (default 10 s: one look at submit, the next when done)', async function () {
    this.timeout(60_000);
    const { button, part } = await setup({ 'poll-interval': '50' });
    // `queued` is reported once on submit; every later `queued`/`rendering` report is one look at the record.
    let reports = 0;
    button.addEventListener('renderprogress', (event) => {
      if (event.detail.stage === 'queued' || event.detail.stage === 'rendering') reports++;
    });
    const ended = outcome(button);
    await userClick(part('button')!);
    expect((await ended).type).to.equal('rendered');
    expect(reports - 1, 'looks at the record').to.be.greaterThan(2);
  });

  it('refuses bad settings before anything is sent, with the service’s code', async () => {
    const { button, part } = await setup({ format: 'avi' });
    const ended = outcome(button);
    await userClick(part('button')!);
    const event = await ended;
    expect(event.detail.code).to.equal('parameter_invalid');
    expect(part('error')!.getAttribute('role')).to.equal('alert');
  });

  it('refuses a service URL that is not http(s) before signing in: client_option_invalid, no window opened', async () => {
    const { button, part } = await setup();
    Object.assign(button, { service: 'javascript:alert(1)', issuer: '' });
    const opened: unknown[] = [];
    const open = window.open;
    window.open = (...args: Parameters<typeof window.open>) => (opened.push(args), null);
    try {
      const ended = outcome(button);
      await userClick(part('button')!);
      expect((await ended).detail.code).to.equal('client_option_invalid');
      expect(opened).to.deep.equal([]);
    } finally {
      window.open = open;
    }
  });

  it('names what is missing when `for` points at nothing', async () => {
    const { button, part } = await setup({ for: 'nowhere' });
    const ended = outcome(button);
    await userClick(part('button')!);
    expect((await ended).detail.code).to.equal('render_button_composition_not_found');
  });

  it('its error event does not bubble to the page (as <fx-composition>’s)', async () => {
    const { button, part } = await setup({ for: 'nowhere' });
    let bubbled = false;
    const listen = () => (bubbled = true);
    document.addEventListener('error', listen);
    const ended = outcome(button);
    await userClick(part('button')!);
    await ended;
    document.removeEventListener('error', listen);
    expect(bubbled).to.equal(false);
  });

  for (const [format, magic] of [
    ['webm', [0x1a, 0x45, 0xdf, 0xa3]],
    ['mov', [...new TextEncoder().encode('ftypqt')]],
  ] as const) {
    it(`cloudRender from the embed as ${format}, with the session the button signed in`, async function () {
      this.timeout(60_000);
      const { composition } = await setup();
      const session = createBrowserSignIn({ issuer: service.issuer, redirectUri: service.redirectUris[0]! });
      if (!(await session.signedIn())) await fromUserClick(() => session.signInWithPopup());
      const { render, video } = await cloudRender(
        { embed: composition },
        { baseUrl: service.url, credentials: session, format, fps: 10, pollInterval: 100 },
      );
      expect(render.format).to.equal(format);
      expect(render.variables).to.deep.equal({ title: 'Rendered' });
      const head = [...new Uint8Array(await video!.slice(0, 12).arrayBuffer())];
      const at = format === 'mov' ? 4 : 0;
      expect(head.slice(at, at + magic.length)).to.deep.equal([...magic]);
    });
  }
});
