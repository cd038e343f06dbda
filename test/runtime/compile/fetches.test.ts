// The compile fetches each file once.
import { expect } from '@open-wc/testing';
import { compileComposition } from '../../../src/runtime/compile/compile.js';
import { typed } from './helpers.js';

describe('compileComposition fetches each file once', () => {
  it('mounts one source three times with a single request for it', async () => {
    const files: Record<string, string> = {
      'https://fx.test/index.html': `<div data-composition-id="main" data-duration="3">
        ${[1, 2, 3].map((n) => `<div data-composition-src="card.html" data-variable-values='{"n":"${n}"}'></div>`).join('')}
      </div>`,
      'https://fx.test/card.html': '<template><div data-composition-id="card"><p>card</p></div></template>',
    };
    const requests: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      const url = String(input);
      requests.push(url);
      return files[url] ? typed(url, files[url]) : new Response('', { status: 404 });
    }) as typeof globalThis.fetch;
    const { html, issues } = await compileComposition(new URL('https://fx.test/index.html'), {
      runtimeUrl: 'https://fx.test/fx-runtime.js',
      fetch,
    });
    expect(issues).to.deep.equal([]);
    expect(html.match(/data-fx-instance="card-\d"/g)).to.have.length(3);
    expect(requests.filter((url) => url.endsWith('card.html'))).to.have.length(1);
  });
});
