import { expect } from '@open-wc/testing';
import { isWebKit, itUnlessWebKit } from '../browsers.js';
import { sendKeys } from '@web/test-runner-commands';
import type { DeclarationsChangeDetail } from '../../src/elements/panel/declaration-source.js';
import type { FxVariablesPanel } from '../../src/elements/panel/fx-variables-panel.js';
import { parseVariableDeclarations } from '../../src/runtime/declarations.js';
import { isFxError } from '../../src/runtime/errors.js';
import { compositionHtml, mount, nextEvent, probe, track, waitFor, watchUncaught, whenReady } from './helpers.js';
import { ALL_TYPES, ALL_TYPES_BODY, choose, inField, mountPair, partOf, typeInto } from './variables-panel-helpers.js';

/** Presses `key` with `modifiers` held. */
async function chord(modifiers: string[], key: string): Promise<void> {
  for (const modifier of modifiers) await sendKeys({ down: modifier });
  await sendKeys({ press: key });
  for (const modifier of [...modifiers].reverse()) await sendKeys({ up: modifier });
}

const ids = (panel: FxVariablesPanel) => panel.declarations.map((declaration) => declaration.id);
const fieldIds = (panel: FxVariablesPanel) =>
  [...panel.shadowRoot!.querySelectorAll<HTMLElement>('[part~="field"]')].map((field) => field.dataset.id);
const formInput = <T extends HTMLElement = HTMLInputElement>(panel: FxVariablesPanel, id: string) =>
  panel.shadowRoot!.getElementById(id) as T;

/** The next `declarationschange`, checked to round-trip through the runtime's parser. */
async function nextChange(panel: FxVariablesPanel): Promise<DeclarationsChangeDetail> {
  const { detail } = await nextEvent<CustomEvent<DeclarationsChangeDetail>>(panel, 'declarationschange');
  const root = new DOMParser().parseFromString(detail.html, 'text/html').documentElement;
  const parsed = parseVariableDeclarations(root.getAttribute('data-composition-variables'));
  expect(parsed.issues).to.deep.equal([]);
  expect(parsed.declarations).to.deep.equal(detail.declarations);
  return detail;
}

describe('<fx-variables-panel> declarations', () => {
  it('is accessible with the declaration form open', async () => {
    const { panel } = await mountPair();
    partOf<HTMLButtonElement>(panel, 'add').click();
    await panel.updateComplete;
    await expect(panel).to.be.accessible();
  });

  it('adds a declaration through the form; the html round-trips and the composition reloads with it', async () => {
    const { composition, panel } = await mountPair({ body: '<p id="note" data-var-text="note"></p>' });
    partOf<HTMLButtonElement>(panel, 'add').click();
    await panel.updateComplete;
    typeInto(formInput(panel, 'draft-id'), 'note');
    typeInto(formInput(panel, 'draft-label'), 'Note');
    typeInto(formInput(panel, 'draft-default'), 'Hello note');
    typeInto(formInput(panel, 'draft-maxLength'), '20');
    await panel.updateComplete;
    const change = nextChange(panel);
    const loaded = nextEvent(composition, 'loadedmetadata');
    partOf<HTMLFormElement>(panel, 'declaration-form').requestSubmit();
    const detail = await change;
    expect(detail.declarations.at(-1)).to.deep.equal({
      id: 'note',
      type: 'string',
      label: 'Note',
      default: 'Hello note',
      maxLength: 20,
    });
    expect(detail.html).to.equal(panel.html);
    await loaded;
    expect(composition.declarations.map((declaration) => declaration.id)).to.include('note');
    expect(await probe(composition, { ask: 'text', selector: '#note' })).to.equal('Hello note');
    await panel.updateComplete;
    expect(fieldIds(panel).at(-1)).to.equal('note');
    expect(() => partOf(panel, 'declaration-form')).to.throw();
  });

  it('opens the form under the field it edits with focus in it; Escape closes it and gives focus back', async () => {
    const { panel } = await mountPair();
    const edit = inField<HTMLButtonElement>(panel, 'size', '[part~="edit"]');
    edit.focus();
    edit.click();
    await panel.updateComplete;
    const form = partOf(panel, 'declaration-form');
    expect(form.previousElementSibling?.getAttribute('data-id')).to.equal('size');
    expect(panel.shadowRoot!.activeElement?.id).to.equal('draft-id');
    await sendKeys({ press: 'Escape' });
    await panel.updateComplete;
    expect(() => partOf(panel, 'declaration-form')).to.throw();
    expect(panel.shadowRoot!.activeElement === edit, 'focus back on the Edit button').to.equal(true);
  });

  it('edits a declaration, changing its type and fields, keeping fields beyond the form', async () => {
    const { panel } = await mountPair({
      variables: [
        ...ALL_TYPES.slice(0, 1),
        { id: 'count', type: 'string', label: 'Count', default: '3', description: 'kept' },
      ],
    });
    inField<HTMLButtonElement>(panel, 'count', '[part~="edit"]').click();
    await panel.updateComplete;
    choose(formInput<HTMLSelectElement>(panel, 'draft-type'), 'number');
    await panel.updateComplete;
    typeInto(formInput(panel, 'draft-min'), '0');
    typeInto(formInput(panel, 'draft-max'), '9');
    const change = nextChange(panel);
    partOf<HTMLFormElement>(panel, 'declaration-form').requestSubmit();
    expect((await change).declarations[1]).to.deep.equal({
      id: 'count',
      type: 'number',
      label: 'Count',
      default: 3,
      description: 'kept',
      min: 0,
      max: 9,
    });
  });

  it('edits enum options', async () => {
    const { panel } = await mountPair();
    inField<HTMLButtonElement>(panel, 'mood', '[part~="edit"]').click();
    await panel.updateComplete;
    expect(formInput<HTMLTextAreaElement>(panel, 'draft-options').value).to.equal('calm: Calm\nloud: Loud');
    typeInto(formInput(panel, 'draft-options'), 'calm: Calm\nwild\n');
    const change = nextChange(panel);
    partOf<HTMLFormElement>(panel, 'declaration-form').requestSubmit();
    expect((await change).declarations[4]).to.deep.include({
      options: [
        { value: 'calm', label: 'Calm' },
        { value: 'wild', label: 'wild' },
      ],
    });
  });

  it('refuses an invalid draft in the form, with the parser’s codes, and changes nothing', async () => {
    const { panel } = await mountPair();
    const before = panel.html;
    partOf<HTMLButtonElement>(panel, 'add').click();
    await panel.updateComplete;
    typeInto(formInput(panel, 'draft-id'), 'title');
    choose(formInput<HTMLSelectElement>(panel, 'draft-type'), 'number');
    await panel.updateComplete;
    typeInto(formInput(panel, 'draft-default'), '');
    await panel.updateComplete;
    partOf<HTMLFormElement>(panel, 'declaration-form').requestSubmit();
    await panel.updateComplete;
    const codes = [...partOf(panel, 'declaration-form').querySelectorAll<HTMLElement>('[part~="issue"]')].map(
      (item) => item.dataset.code,
    );
    expect(codes).to.deep.equal(['default_type_mismatch']);
    typeInto(formInput(panel, 'draft-default'), '1');
    partOf<HTMLFormElement>(panel, 'declaration-form').requestSubmit();
    await panel.updateComplete;
    const again = [...partOf(panel, 'declaration-form').querySelectorAll<HTMLElement>('[part~="issue"]')].map(
      (item) => item.dataset.code,
    );
    expect(again).to.deep.equal(['duplicate_id']);
    expect(panel.html).to.equal(before);
    expect(panel.canUndo).to.equal(false);
  });

  it('removes a declaration and its override', async () => {
    const { composition, panel } = await mountPair();
    typeInto(inField(panel, 'title'), 'Changed');
    const change = nextChange(panel);
    inField<HTMLButtonElement>(panel, 'title', '[part~="remove"]').click();
    expect((await change).declarations.map((declaration) => declaration.id)).to.not.include('title');
    expect(composition.variables).to.deep.equal({});
    await panel.updateComplete;
    expect(fieldIds(panel)).to.not.include('title');
  });

  it('undoes and redoes with the buttons, each step a declarationschange', async () => {
    const { panel } = await mountPair();
    const original = panel.html;
    const removed = nextChange(panel);
    inField<HTMLButtonElement>(panel, 'extra', '[part~="remove"]').click();
    const afterRemove = (await removed).html;
    await panel.updateComplete;
    expect(partOf<HTMLButtonElement>(panel, 'redo').disabled).to.equal(true);
    const undone = nextChange(panel);
    partOf<HTMLButtonElement>(panel, 'undo').click();
    expect((await undone).html).to.equal(original);
    expect(ids(panel)).to.include('extra');
    await panel.updateComplete;
    expect(partOf(panel, 'status').textContent).to.equal('Undone');
    const redone = nextChange(panel);
    partOf<HTMLButtonElement>(panel, 'redo').click();
    expect((await redone).html).to.equal(afterRemove);
    expect(ids(panel)).to.not.include('extra');
  });

  itUnlessWebKit(
    'heldKeys',
    'undoes with Ctrl+Z and redoes with Shift+Ctrl+Z (and Cmd), but leaves text fields their own undo',
    async () => {
      const { panel } = await mountPair();
      panel.setDeclarations(panel.declarations.slice(1));
      await panel.updateComplete;
      partOf<HTMLButtonElement>(panel, 'copy-json').focus();
      await chord(['Control'], 'z');
      expect(ids(panel)[0]).to.equal('title');
      await chord(['Control', 'Shift'], 'z');
      expect(ids(panel)[0]).to.equal('size');
      await chord(['Meta'], 'z');
      expect(ids(panel)[0]).to.equal('title');
      await panel.updateComplete;
      inField(panel, 'title').focus();
      await chord(['Control', 'Shift'], 'z');
      expect(ids(panel)[0], 'no redo from inside a text field').to.equal('title');
      expect(panel.canRedo).to.equal(true);
    },
  );

  it('setDeclarations returns the html and refuses invalid lists with declarations_invalid', async () => {
    const { panel } = await mountPair();
    const html = panel.setDeclarations([{ id: 'only', type: 'boolean', label: 'Only', default: false }]);
    expect(html).to.equal(panel.html);
    const bad = [
      { id: 'x', type: 'nope', label: 'X', default: 1 },
      { id: 'y', type: 'number', label: 'Y', default: Number.NaN },
    ];
    try {
      panel.setDeclarations(bad);
      expect.fail('no error');
    } catch (error) {
      expect(isFxError(error, 'declarations_invalid')).to.equal(true);
      expect((error as { issues: { code: string }[] }).issues.map((found) => found.code)).to.deep.equal([
        'declaration_type_unknown',
        'default_type_mismatch',
      ]);
    }
    expect(panel.html).to.equal(html);
  });

  it('a cancelled declarationschange leaves the composition as it was (the app saves the html)', async () => {
    const { composition, panel } = await mountPair();
    const srcdoc = composition.srcdoc;
    panel.addEventListener('declarationschange', (event) => event.preventDefault(), { once: true });
    panel.setDeclarations(panel.declarations.slice(1));
    expect(composition.srcdoc).to.equal(srcdoc);
  });
});

describe('<fx-variables-panel> reads', () => {
  it('badges declarations nothing reads as unused', async () => {
    const { panel } = await mountPair();
    const badged = [...panel.shadowRoot!.querySelectorAll<HTMLElement>('[part~="field"]')]
      .filter((field) => field.querySelector('[part~="badge"]'))
      .map((field) => field.dataset.id);
    expect(badged).to.deep.equal(['extra']);
    expect(inField(panel, 'extra', '[part~="badge"]').textContent).to.equal('unused');
  });

  it('offers to declare ids bindings read, with the inferred type, in one click', async () => {
    const body =
      '<p data-var-text="subtitle"></p><img data-var-src="hero" alt=""><div data-color-grading=\'{"adjust":{"exposure":"$exposure"}}\'></div>';
    const { panel } = await mountPair({ body });
    const offered = [...partOf(panel, 'undeclared').querySelectorAll<HTMLElement>('li')].map((item) => [
      item.dataset.id,
      item.querySelector('button')!.getAttribute('aria-label'),
    ]);
    expect(offered).to.deep.equal([
      ['hero', 'Declare hero as image'],
      ['subtitle', 'Declare subtitle as string'],
      ['exposure', 'Declare exposure as number'],
    ]);
    const change = nextChange(panel);
    partOf(panel, 'undeclared').querySelector<HTMLButtonElement>('li[data-id="hero"] button')!.click();
    expect((await change).declarations.at(-1)).to.deep.equal({ id: 'hero', type: 'image', label: 'hero', default: '' });
    await panel.updateComplete;
    expect(
      [...partOf(panel, 'undeclared').querySelectorAll<HTMLElement>('li')].map((item) => item.dataset.id),
    ).to.deep.equal(['subtitle', 'exposure']);
  });
});

describe('<fx-variables-panel> hostile input', () => {
  const HOSTILE_ID = `it's "x" </script><script>alert(1)</script>`;

  it('ids with quotes and </script>, huge text and NaN never throw in the page', async () => {
    const uncaught = watchUncaught();
    try {
      const { composition, panel } = await mountPair({
        variables: [...ALL_TYPES, { id: HOSTILE_ID, type: 'string', label: HOSTILE_ID, default: '</html>' }],
      });
      expect(fieldIds(panel)).to.include(HOSTILE_ID);
      typeInto(inField(panel, HOSTILE_ID), '<img src=x onerror=alert(1)>');
      typeInto(inField(panel, 'title'), 'x'.repeat(1_000_000));
      typeInto(inField(panel, 'size'), 'NaN');
      typeInto(inField(panel, 'size'), '1e400');
      await panel.updateComplete;
      expect(composition.variables).to.deep.include({ [HOSTILE_ID]: '<img src=x onerror=alert(1)>' });
      expect(Object.hasOwn(composition.variables, 'size'), 'an unreadable number writes nothing').to.equal(false);
      expect(panel.shadowRoot!.querySelector('img')).to.equal(null);
      // WebKit cuts a text field's value at 524288 characters (its input length limit).
      expect(partOf(panel, 'counter').textContent!.trim()).to.equal(`${isWebKit ? 524_288 : 1_000_000} / 10`);
      // Declaring, editing and removing the hostile id round-trips through the html.
      const change = nextChange(panel);
      inField<HTMLButtonElement>(panel, HOSTILE_ID, '[part~="remove"]').click();
      await change;
      const back = nextChange(panel);
      panel.undo();
      expect((await back).declarations.at(-1)!.id).to.equal(HOSTILE_ID);
      await nextEvent(composition, 'loadedmetadata');
      expect(composition.declarations.at(-1)!.id).to.equal(HOSTILE_ID);
    } finally {
      uncaught.stop();
    }
    expect(uncaught.errors).to.deep.equal([]);
  });

  itUnlessWebKit('longText', 'variables the composition refuses show as an issue, not an exception', async () => {
    const { composition, panel } = await mountPair();
    const uncaught = watchUncaught();
    typeInto(inField(panel, 'title'), 'x'.repeat(33 * 1024 * 1024));
    await nextEvent(composition, 'error');
    await panel.updateComplete;
    uncaught.stop();
    expect(uncaught.errors).to.deep.equal([]);
    expect(
      [...panel.shadowRoot!.querySelectorAll<HTMLElement>('#general-issues li')].map((item) => item.dataset.code),
    ).to.deep.equal(['variables_json_invalid']);
  });

  it('a panel without a composition, or with a missing one, renders and edits nothing', async () => {
    const panel = document.body.appendChild(
      Object.assign(document.createElement('fx-variables-panel'), { for: 'nowhere' }),
    );
    try {
      await panel.updateComplete;
      expect(panel.composition).to.equal(null);
      expect(fieldIds(panel)).to.deep.equal([]);
      expect(() => panel.setDeclarations([]))
        .to.throw()
        .with.property('code', 'source_unavailable');
      expect(panel.undo()).to.equal(false);
    } finally {
      panel.remove();
    }
  });

  it('a source whose declarations are not JSON: shows where, and offers no edit that would drop them', async () => {
    const srcdoc = compositionHtml({ variables: ALL_TYPES, body: ALL_TYPES_BODY }).replace('},{', '}\n{');
    const composition = mount({ id: 'unreadable' }, { srcdoc });
    const panel = track(
      document.body,
      Object.assign(document.createElement('fx-variables-panel'), { for: 'unreadable' }),
    );
    const note = await waitFor(() => panel.shadowRoot?.querySelector('[part="status-source"]'), 'the source note');
    expect(note.textContent)
      .to.match(/could not be read/)
      .and.to.match(/not valid JSON at line 2, column 1/);
    await whenReady(composition);
    await panel.updateComplete;
    const edits = '[part~="declare"], [part~="edit"], [part~="remove"], [part~="add"]';
    expect(panel.shadowRoot!.querySelectorAll(edits)).to.have.length(0);
    expect(() => panel.setDeclarations([]))
      .to.throw()
      .with.property('code', 'source_unavailable');
    await expect(panel).to.be.accessible();
  });

  it('follows its composition again after being moved in the DOM', async () => {
    const { composition, panel } = await mountPair();
    panel.remove();
    document.body.append(panel);
    const changed = nextEvent(composition, 'variableschange');
    composition.variables = { title: 'After the move' };
    await changed;
    await panel.updateComplete;
    expect(inField(panel, 'title').value).to.equal('After the move');
  });

  it('binds a composition that appears after the panel', async () => {
    const panel = document.body.appendChild(
      Object.assign(document.createElement('fx-variables-panel'), { for: 'late-composition' }),
    );
    try {
      const { composition } = await mountPair();
      composition.id = 'late-composition';
      await waitFor(
        () => panel.composition === composition && panel.html !== undefined,
        'the late composition to bind',
      );
      await panel.updateComplete;
      expect(fieldIds(panel)).to.deep.equal(ALL_TYPES.map((declaration) => declaration.id));
    } finally {
      panel.remove();
    }
  });
});
