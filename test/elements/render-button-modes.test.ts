// <fx-render-button mode>: `browser` exports in the page (no service, no sign-in) and offers the file; `auto` does
// too where it can; what only the service makes, and a mode that is none of the three, are refused at the click.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/composition/define.js';
import '../../src/elements/render-button/define.js';
import { ExportErrorCode } from '../../src/export/codes.js';
import { FxError } from '../../src/runtime/errors.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import type { FxRenderButton, FxRenderedDetail } from '../../src/elements/render-button/fx-render-button.js';
import { FxRenderButtonErrorCode } from '../../src/elements/render-button/constants.js';
import { fallsBackToCloud } from '../../src/elements/render-button/browser-export.js';
import { itUnlessWebKit } from '../browsers.js';
import { userClick } from '../user-click.js';
import { compositionHtml, waitFor } from './helpers.js';
import { outcome } from './render-button-helpers.js';

const COMPOSITION = compositionHtml({ width: 160, height: 90, duration: 0.5 });

async function setup(attributes: Record<string, string>) {
  const root = await fixture<HTMLDivElement>(
    html`<div>
      <fx-composition id="clip" .srcdoc=${COMPOSITION}></fx-composition>
      <fx-render-button for="clip"></fx-render-button>
    </div>`,
  );
  const button = root.querySelector<FxRenderButton>('fx-render-button')!;
  for (const [name, value] of Object.entries(attributes)) button.setAttribute(name, value);
  const composition = root.querySelector<FxComposition>('fx-composition')!;
  await waitFor(() => composition.ready, 'the composition is ready');
  const part = (name: string) => button.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
  return { button, part };
}

describe('<fx-render-button mode>', function () {
  this.timeout(30_000);

  for (const mode of ['browser', 'auto']) {
    itUnlessWebKit('videoEncoder', `mode="${mode}" exports in the page and offers the file`, async () => {
      const { button, part } = await setup({ mode, fps: '10' });
      const stages: string[] = [];
      button.addEventListener('renderprogress', (event) => stages.push(event.detail.stage));
      const ended = outcome(button);
      await userClick(part('button')!);
      const event = await ended;
      expect(event.type, JSON.stringify(event.detail)).to.equal('rendered');
      const { renderId, render, blob, exported } = event.detail as FxRenderedDetail;
      expect(renderId).to.equal('');
      expect(render).to.equal(undefined);
      // The button's resolution (1080p by default) sizes the file as the service would: the 160×90 composition
      // scaled into 1920×1080.
      expect(exported).to.deep.include({ format: 'mp4', frames: 5, fps: 10, width: 1920, height: 1080 });
      expect(new TextDecoder().decode(new Uint8Array(await blob.slice(4, 8).arrayBuffer()))).to.equal('ftyp');
      // No sign-in, no upload: only the frames' progress.
      expect([...new Set(stages)]).to.deep.equal(['rendering']);
      expect((part('download') as HTMLAnchorElement).download).to.equal('clip.mp4');
    });
  }

  it('mode="browser" refuses what only the service makes, naming it', async () => {
    for (const [attributes, says] of [
      [{ format: 'gif' }, 'format "gif" is rendered by the service only'],
      [{ format: 'mov' }, 'format "mov" is rendered by the service only'],
      [{ resolution: '4k' }, 'resolution 4k is rendered by the service only'],
      [{ range: '0:0.2' }, '"range" is for the service\'s renders only'],
    ] as const) {
      const { button, part } = await setup({ mode: 'browser', ...attributes });
      const ended = outcome(button);
      await userClick(part('button')!);
      const event = await ended;
      expect(event.type).to.equal('error');
      expect(event.detail.code).to.equal(FxRenderButtonErrorCode.attributeInvalid);
      expect(event.detail.message).to.contain(says);
    }
  });

  it('a mode that is none of the three is refused at the click', async () => {
    const { button, part } = await setup({ mode: 'sideways' });
    const ended = outcome(button);
    await userClick(part('button')!);
    const event = await ended;
    expect(event.detail.code).to.equal(FxRenderButtonErrorCode.attributeInvalid);
    expect(event.detail.message).to.contain('"mode" must be one of "cloud", "browser", "auto", got "sideways"');
  });

  it('mode="auto" goes to the service after a capture refusal or a browser without an encoder, not after others', () => {
    expect(fallsBackToCloud(new FxError(ExportErrorCode.captureRefused, 'a nested frame'))).to.equal(true);
    expect(fallsBackToCloud(new FxError(ExportErrorCode.unsupported, 'no encoder'))).to.equal(true);
    expect(fallsBackToCloud(new FxError(ExportErrorCode.aborted, 'cancelled'))).to.equal(false);
    expect(fallsBackToCloud(new FxError(ExportErrorCode.encodeFailed, 'broke'))).to.equal(false);
    expect(fallsBackToCloud(new Error('anything else'))).to.equal(false);
  });
});
