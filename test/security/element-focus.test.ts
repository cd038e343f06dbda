import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { mount, probe, sleep, track, waitFor, whenReady } from '../elements/helpers.js';
import { hostileComposition } from './hostile.js';

/** A composition calls `window.focus()` and focuses an input of its own, again and again, without user activation. */
describe('security: <fx-composition> keyboard focus', () => {
  it('a composition cannot take focus from a host input, nor read what the user types', async () => {
    const input = track(document.body, Object.assign(document.createElement('input'), { id: 'host-input' }));
    input.focus();
    const el = await whenReady(mount({ controls: true }, { srcdoc: hostileComposition(['steal-focus']) }));
    // The frame tries four times, 50 ms apart, once it is ready.
    await sleep(400);
    expect(document.activeElement?.id).to.equal('host-input');
    await sendKeys({ type: 'secret' });
    expect(input.value).to.equal('secret');
    expect(await probe(el, { ask: 'global', name: 'hostileKeys' })).to.deep.equal([]);
  });

  it('with nothing focused on the host, the frame still does not keep focus', async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    const el = await whenReady(mount({}, { srcdoc: hostileComposition(['steal-focus']) }));
    await sleep(400);
    await sendKeys({ type: 'abc' });
    expect(document.activeElement?.localName).not.to.equal('fx-composition');
    expect(await probe(el, { ask: 'global', name: 'hostileKeys' })).to.deep.equal([]);
  });

  it('the element’s own controls stay focusable and keyboard-usable next to a focus-stealing frame', async () => {
    const el = await whenReady(mount({ controls: true }, { srcdoc: hostileComposition(['steal-focus']) }));
    const play = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="play-button"]')!;
    play.focus();
    // Keys pressed while a steal is under way can reach the frame (SECURITY.md); press once the frame gave up.
    await waitFor(
      async () => (await probe(el, { ask: 'global', name: 'hostileSteals' })) === 4,
      'the frame to make its four attempts',
    );
    await sleep(200);
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('play-button');
    await sendKeys({ press: 'Enter' });
    await waitFor(() => !el.paused, 'Enter on the play button to start playback');
    const scrubber = el.shadowRoot!.querySelector<HTMLInputElement>('[part="scrubber"]')!;
    scrubber.focus();
    await sleep(200);
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('scrubber');
  });
});
