import { expect } from '@open-wc/testing';
import type { FxVariablesPanel } from '../../src/elements/panel/fx-variables-panel.js';
import { mountPair } from './variables-panel-helpers.js';

/** Each field's label (or legend), controls and tools, as boxes. */
function boxes(panel: FxVariablesPanel) {
  return [...panel.shadowRoot!.querySelectorAll<HTMLElement>('[part~="field"]')].map((field) => {
    const box = (selector: string) => field.querySelector(selector)!.getBoundingClientRect();
    return {
      id: field.dataset.id!,
      label: box('[part~="label"]'),
      control: box('[part~="control"]'),
      tools: box('[part~="tools"]'),
    };
  });
}

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

/**
 * The fields share one grid: labels in a column, controls lined up beside them, the edit/remove buttons on the
 * label's row; a narrow panel stacks the controls under their label.
 */
describe('<fx-variables-panel> layout', () => {
  it('lines up labels and controls in columns, every type alike, with the tools on the label’s row', async () => {
    const { panel } = await mountPair();
    panel.style.width = '640px';
    await panel.updateComplete;
    const fields = boxes(panel);
    expect(fields.length).to.equal(8);
    expect(spread(fields.map(({ label }) => label.left))).to.be.below(1);
    expect(spread(fields.map(({ control }) => control.left))).to.be.below(1);
    // Without a badge the tools take the same room, so the controls end in line too.
    const plain = fields.filter(({ id }) => id !== 'extra');
    expect(spread(plain.map(({ control }) => control.right))).to.be.below(1);
    for (const { id, label, control, tools } of fields) {
      expect(control.left, id).to.be.above(label.right);
      expect(tools.left, id).to.be.at.least(control.right);
      expect(tools.top, id).to.be.below(label.bottom);
      expect(tools.bottom, id).to.be.above(label.top);
    }
  });

  it('stacks each field’s controls under its label when the panel is narrow', async () => {
    const { panel } = await mountPair();
    panel.style.width = '300px';
    await panel.updateComplete;
    for (const { id, label, control, tools } of boxes(panel)) {
      expect(control.top, id).to.be.at.least(label.bottom - 1);
      expect(Math.abs(control.left - label.left), id).to.be.below(1);
      expect(tools.top, id).to.be.below(label.bottom);
      expect(tools.left, id).to.be.above(label.right);
    }
  });
});
