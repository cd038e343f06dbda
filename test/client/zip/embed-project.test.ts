import { expect } from '@open-wc/testing';
import { unzipSync } from 'fflate';
import { zipProject } from '../../../src/client/zip/index.js';
import { isFxError } from '../../../src/runtime/errors.js';
import { mount, nextEvent } from '../../elements/helpers.js';

const FOLDER = new URL('/test/fixtures/project/', location.href).href;
/** Every file the fixture's composition uses with its image variable set to media/chosen.svg — not unused.svg. */
const USED = [
  'fonts/title.ttf',
  'index.html',
  'media/bg.svg',
  'media/chosen.svg',
  'media/default.svg',
  'parts/card.html',
  'parts/logo.svg',
  'style.css',
];

async function loaded(attributes: Record<string, string>, srcdoc?: string) {
  const element = mount(attributes, srcdoc === undefined ? {} : { srcdoc });
  await nextEvent(element, 'ready');
  return element;
}

const fileBytes = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

describe('<fx-composition> as a project', () => {
  it('lists the files the composition uses, with the current image value, and zips exactly them', async () => {
    const element = await loaded({
      src: `${FOLDER}index.html`,
      variables: JSON.stringify({ photo: 'media/chosen.svg' }),
    });
    expect(element.dependencies.map(({ path }) => path).sort()).to.deep.equal(USED);
    expect(element.dependencies[0]).to.deep.equal({ path: 'index.html', url: `${FOLDER}index.html` });
    expect(element.dependencies.find(({ path }) => path === 'parts/logo.svg')!.url).to.equal(`${FOLDER}parts/logo.svg`);

    const files = await element.projectFiles();
    const { zip } = await zipProject(files, { ignore: false });
    const unzipped = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(unzipped).sort()).to.deep.equal(USED);
    for (const path of USED) expect(unzipped[path], path).to.deep.equal(await fileBytes(`${FOLDER}${path}`));
  });

  it('follows the variables: a new image value is in, the one it replaced stays only if still named', async () => {
    const element = await loaded({ src: `${FOLDER}index.html` });
    expect(element.dependencies.map(({ path }) => path)).not.to.include('media/chosen.svg');
    element.variables = { photo: 'media/chosen.svg' };
    expect(element.dependencies.map(({ path }) => path)).to.include('media/chosen.svg');
    element.variables = { photo: 'https://images.example/elsewhere.png' };
    expect(element.dependencies.map(({ path }) => path)).not.to.include('media/chosen.svg');
  });

  it('adds extra files by URL or as entries', async () => {
    const element = await loaded({ src: `${FOLDER}index.html` });
    const files = await element.projectFiles({
      extraFiles: ['media/extra.svg', { path: 'data/rows.json', data: '[1]' }],
    });
    expect(files.map(({ path }) => path)).to.include.members(['media/extra.svg', 'data/rows.json']);
  });

  it('takes a srcdoc entry as index.html, as given', async () => {
    const srcdoc = `<!doctype html><div data-composition-id="m" data-duration="1" data-width="320" data-height="180"><p>inline</p></div>`;
    const element = await loaded({}, srcdoc);
    const files = await element.projectFiles();
    expect(files).to.deep.equal([{ path: 'index.html', data: srcdoc }]);
  });

  it('leaves out files outside the entry folder, even in a folder it may read, and on other origins', async () => {
    const element = mount({ src: `${FOLDER}outside.html` });
    element.allowCompositionReadsUnder = [new URL('/test/fixtures/basic/', location.href).href];
    await nextEvent(element, 'ready');
    expect(element.dependencies).to.deep.equal([
      { path: 'index.html', url: `${FOLDER}outside.html` },
      { path: 'media/bg.svg', url: `${FOLDER}media/bg.svg` },
    ]);
  });

  it('refuses before a load, and names a file that cannot be fetched', async () => {
    const element = mount({ src: `${FOLDER}index.html`, loading: 'lazy' }, {});
    element.style.cssText = 'display:block;width:320px;height:180px;margin-top:200vh';
    const early = await element.projectFiles().catch((error: unknown) => error);
    expect(isFxError(early, 'project_not_loaded')).to.be.true;
    element.remove();

    const loadedElement = await loaded({ src: `${FOLDER}index.html` });
    const missing = await loadedElement
      .projectFiles({ extraFiles: ['media/missing.svg'] })
      .catch((error: unknown) => error);
    expect(isFxError(missing, 'project_file_unavailable')).to.be.true;
    expect((missing as { path?: string }).path).to.equal('media/missing.svg');
  });
});
