import { expect } from '@open-wc/testing';
import { absolutizeImageValues } from '../../../src/runtime/compile/image-values.js';

const DECLARED_AT = 'https://site.example/parts/card.html';
const VALUED_AT = 'https://site.example/index.html';

function host(declarations: unknown, values: unknown): HTMLElement {
  const element = document.createElement('div');
  element.setAttribute('data-composition-variables', JSON.stringify(declarations));
  element.setAttribute('data-variable-values', JSON.stringify(values));
  return element;
}
const read = (element: Element, name: string) => JSON.parse(element.getAttribute(name)!);

describe('absolutizeImageValues', () => {
  it('resolves image defaults against the sub-composition and values against the file naming it', () => {
    const element = host(
      [
        { id: 'pic', type: 'image', default: 'a.png' },
        { id: 't', type: 'string', default: 'b.png' },
      ],
      {
        pic: 'c.png',
        t: 'd.png',
      },
    );
    absolutizeImageValues(element, DECLARED_AT, VALUED_AT);
    expect(read(element, 'data-composition-variables')[0].default).to.equal('https://site.example/parts/a.png');
    expect(read(element, 'data-composition-variables')[1].default).to.equal('b.png');
    expect(read(element, 'data-variable-values')).to.deep.equal({ pic: 'https://site.example/c.png', t: 'd.png' });
  });

  it('does the same for declarations in the object form, keeping that form (the key is the id)', () => {
    const element = host(
      { pic: { type: 'image', default: 'a.png' }, t: { type: 'string', default: 'b.png' } },
      { pic: 'c.png' },
    );
    absolutizeImageValues(element, DECLARED_AT, VALUED_AT);
    expect(read(element, 'data-composition-variables')).to.deep.equal({
      pic: { type: 'image', default: 'https://site.example/parts/a.png' },
      t: { type: 'string', default: 'b.png' },
    });
    expect(read(element, 'data-variable-values')).to.deep.equal({ pic: 'https://site.example/c.png' });
  });
});
