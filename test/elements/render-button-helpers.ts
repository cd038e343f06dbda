/**
 * What the `<fx-render-button>` tests share: a sign-in service of their own (by name, so its sessions are theirs),
 * a preview with a button wired to it, and the button's outcome.
 */
import { fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { ifDefined } from 'lit/directives/if-defined.js';
import '../../src/elements/composition/define.js';
import '../../src/elements/render-button/define.js';
import type { FxComposition } from '../../src/elements/composition/fx-composition.js';
import type { FxRenderButton } from '../../src/elements/render-button/fx-render-button.js';
import { saveTestConfig } from '../auth/fixtures/test-config.js';
import { waitFor } from './helpers.js';

export interface TestService {
  url: string;
  issuer: string;
  redirectUris: string[];
}

/** Starts (once per `name`) the sign-in and render service and points the redirect page at it. */
export async function startService(name: string): Promise<TestService> {
  const service = (await executeServerCommand<TestService, { origin: string; name: string }>('fx-oauth-service', {
    origin: location.origin,
    name,
  }))!;
  // The redirect page reads its settings from here (test/auth/fixtures/signed-in.html).
  saveTestConfig({ issuer: service.issuer, redirectUri: service.redirectUris[0]! });
  return service;
}

export type ButtonAttributes = Partial<Record<'for' | 'format' | 'fps' | 'poll-interval', string>>;

export async function setup(service: TestService, attributes: ButtonAttributes = {}) {
  const root = await fixture<HTMLDivElement>(html`
    <div>
      <fx-composition
        id="preview"
        src="/test/fixtures/basic/index.html"
        .variables=${{ title: 'Rendered' }}
      ></fx-composition>
      <fx-render-button
        for=${attributes.for ?? 'preview'}
        format=${attributes.format ?? 'mp4'}
        fps=${attributes.fps ?? '10'}
        poll-interval=${ifDefined(attributes['poll-interval'])}
        service=${service.url}
        issuer=${service.issuer}
        redirect-uri=${service.redirectUris[0]!}
      ></fx-render-button>
    </div>
  `);
  const composition = root.querySelector<FxComposition>('fx-composition')!;
  const button = root.querySelector<FxRenderButton>('fx-render-button')!;
  await waitFor(() => composition.ready, 'the composition is ready');
  return {
    composition,
    button,
    part: (name: string) => button.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`),
  };
}

/** The button's `rendered` or `error` event, whichever comes first. */
export const outcome = (button: FxRenderButton) =>
  new Promise<CustomEvent>((resolve) => {
    button.addEventListener('rendered', resolve, { once: true });
    button.addEventListener('error', resolve, { once: true });
  });
