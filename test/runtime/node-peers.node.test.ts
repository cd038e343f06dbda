// `fx-sdk/node` without its optional peers (parse5, linkedom): the import works (the client needs neither), and a
// parse is a typed error naming the install command. Runs the built dist/fx-node.js from a folder whose
// node_modules has every package of this checkout but those two. Needs dist/ built, as `npm test` does before this.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../render/helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PEERS = new Set(['parse5', 'linkedom']);

test('fx-sdk/node without parse5 and linkedom: imports, and a parse says what to install', async (t) => {
  const { path: folder, cleanup } = await tempDir('fx-node-peers-');
  t.after(cleanup);
  mkdirSync(join(folder, 'node_modules'));
  for (const name of readdirSync(join(root, 'node_modules')))
    if (!PEERS.has(name) && !name.startsWith('.'))
      symlinkSync(join(root, 'node_modules', name), join(folder, 'node_modules', name));
  copyFileSync(join(root, 'dist', 'fx-node.js'), join(folder, 'fx-node.js'));
  const script = `
    const fx = await import(${JSON.stringify(join(folder, 'fx-node.js'))});
    try { fx.extractCompositionMetadata('<div data-composition-id="a" data-duration="1"></div>'); console.log('parsed'); }
    catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message, client: typeof fx.cloudRender })); }`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: folder,
    encoding: 'utf8',
  });
  const answer = JSON.parse(output) as { code: string; message: string; client: string };
  assert.equal(answer.code, 'html_parser_unavailable');
  assert.match(answer.message, /npm i parse5 linkedom/);
  assert.equal(answer.client, 'function');
});
