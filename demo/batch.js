// The batch box: rows pasted as JSON or CSV are checked as they are typed, by the client's own batch check (the
// codes and messages the CLI and the service give), then rendered on the local service with one upload for all
// rows, each row's status shown as it goes: queued, rendering %, done (a download link) or failed (its code).
import {
  BROWSER_CLIENT_ID,
  BatchErrorCode,
  batchRows,
  cloudRenderBatch,
  createBrowserSignIn,
  describeProgress,
  FxError,
  isFxError,
} from 'fx-sdk';

/** The local service answers at once: look at a render's progress every half second. */
const POLL_MS = 500;

export class BatchBox {
  #preview;
  #rows;
  #fps;
  #check;
  #start;
  #cancel;
  #list;
  #abort;
  #links = [];
  #signIn = createBrowserSignIn({
    issuer: new URL('/oauth', location.origin).href,
    clientId: BROWSER_CLIENT_ID,
    redirectUri: location.href.split('#')[0],
  });

  constructor(form, preview) {
    this.#preview = preview;
    this.#rows = form.elements.rows;
    this.#fps = form.elements.fps;
    this.#start = form.elements.start;
    this.#cancel = form.elements.cancel;
    this.#check = form.querySelector('.batch-check');
    this.#list = form.querySelector('.batch-rows');
    this.#rows.addEventListener('input', () => this.check());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.render();
    });
    this.#cancel.addEventListener('click', () => this.#abort?.abort());
  }

  /** Puts a composition's sample rows in the box (and forgets the last batch's results). */
  setSample(text) {
    this.#rows.value = text;
    this.#clearRows();
    this.check();
  }

  /** Checks the rows against the preview's declarations; true when they can be rendered. */
  check() {
    const result = this.#validate();
    this.#check.replaceChildren(...this.#describe(result));
    this.#check.classList.toggle('error', !result.ok);
    this.#rows.setAttribute('aria-invalid', String(!result.ok));
    this.#start.disabled = !result.ok || this.#abort !== undefined;
    this.#start.textContent = result.ok ? `Render ${plural(result.rows.length, 'video')}` : 'Render';
    return result.ok;
  }

  async render() {
    if (this.#abort || !this.check()) return;
    const abort = (this.#abort = new AbortController());
    const input = this.#input();
    const count = this.#validate().rows.length;
    this.#clearRows();
    const items = Array.from({ length: count }, (_, row) => this.#addRow(row));
    this.#running(true);
    let outcome;
    let failed = false;
    try {
      const credentials = await this.#credentials();
      const manifest = await cloudRenderBatch({ embed: this.#preview }, input, {
        baseUrl: location.origin,
        credentials,
        fps: Number(this.#fps.value),
        concurrency: 2,
        pollInterval: POLL_MS,
        signal: abort.signal,
        onProgress: (progress) => {
          if (progress.row === undefined) this.#check.textContent = describeProgress(progress);
          else setStatus(items[progress.row], describeProgress(progress));
        },
        onRow: (row, video) => this.#finish(items[row.row], row, video),
      });
      const failures = manifest.filter((row) => row.status === 'failed').length;
      outcome = [`${plural(count - failures, 'video')} rendered${failures ? `, ${failures} failed` : ''}`];
    } catch (error) {
      outcome = issueText(error);
      failed = true;
      // A refusal or a cancel: rows that had not ended never will.
      for (const item of items) {
        if (item.dataset.status !== 'done' && item.dataset.status !== 'failed')
          setStatus(item, 'not rendered', 'failed');
      }
    } finally {
      this.#abort = undefined;
      this.#running(false);
    }
    // After the box's own check (which `#running` redoes): what the batch did.
    this.#check.replaceChildren(...outcome);
    this.#check.classList.toggle('error', failed);
  }

  /** The box's text: JSON when it starts like JSON, else CSV (read by the declared types). */
  #input() {
    const text = this.#rows.value.trim();
    if (!text.startsWith('[') && !text.startsWith('{')) return this.#rows.value;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new FxError(BatchErrorCode.rowsInvalid, `the rows are not valid JSON: ${error.message}`);
    }
  }

  #validate() {
    try {
      const declarations = this.#preview.declarations ?? [];
      // Rows count from 0, as the client's messages, the CLI and manifest.json say.
      const { rows, warnings } = batchRows(this.#input(), this.#preview.variables, declarations);
      return { ok: true, rows, issues: warnings };
    } catch (error) {
      return { ok: false, rows: [], issues: error.issues ?? [], error };
    }
  }

  #describe({ ok, rows, issues, error }) {
    const lines = ok ? [text('p', `${plural(rows.length, 'row')} ready`)] : [text('p', '', ...issueText(error))];
    if (issues.length > 0) {
      const list = document.createElement('ul');
      for (const found of issues) {
        list.append(text('li', `row ${found.path[1]}: `, code(found.code), ` ${found.message}`));
      }
      lines.push(list);
    }
    return lines;
  }

  async #credentials() {
    if (await this.#signIn.signedIn()) return this.#signIn;
    this.#check.textContent = 'Signing in';
    await this.#signIn.signInWithPopup();
    return this.#signIn;
  }

  #addRow(row) {
    const item = text('li', `row ${row}: `);
    item.append(text('span', ''));
    item.lastChild.className = 'row-status';
    setStatus(item, 'queued');
    this.#list.append(item);
    return item;
  }

  #finish(item, row, video) {
    if (row.status === 'failed' || !video) {
      setStatus(item, '', 'failed');
      item.lastChild.append(code(row.error?.code ?? 'render_failed'), ` ${row.error?.message ?? ''}`);
      return;
    }
    const href = URL.createObjectURL(video);
    this.#links.push(href);
    const name = `${row.render_id}.mp4`;
    setStatus(item, 'done ', 'done');
    const link = text('a', `Download ${name}`);
    Object.assign(link, { href, download: name });
    item.lastChild.append(link);
  }

  #running(on) {
    this.#cancel.hidden = !on;
    this.#rows.readOnly = on;
    if (!on) this.check();
    else this.#start.disabled = true;
  }

  #clearRows() {
    for (const href of this.#links.splice(0)) URL.revokeObjectURL(href);
    this.#list.replaceChildren();
  }
}

function setStatus(item, label, status = label.split(' ')[0].toLowerCase()) {
  item.dataset.status = status;
  item.lastChild.textContent = label;
}

const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function text(tag, ...parts) {
  const element = document.createElement(tag);
  element.append(...parts);
  return element;
}

const code = (value) => text('code', value);

/** An error as the page shows it: its code, then its message. */
function issueText(error) {
  const name = isFxError(error) ? error.code : 'batch_failed';
  return [code(name), ` ${error?.message ?? String(error)}`];
}
