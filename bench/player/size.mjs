// Size: min+gzip of the code each player's preview loads, in KiB (gzip level 9, 1 KiB = 1024 bytes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleModule } from '../lib/bundle.mjs';
import { BUNDLES } from './setup.mjs';

const gzipKiB = (code) => gzipSync(code, { level: 9 }).length / 1024;
const LIT = ['lit', 'lit/*'];

/**
 * Ours as shipped (`fx-player.iife.js`, which carries the frame's runtime, and `fx.iife.js`, the whole SDK),
 * and the element as a minimal ES bundle (esbuild from src/elements/composition/define.ts, lit and the compiler included),
 * split into its parts. The peer: its classic-script player bundle + the runtime it injects into the frame.
 */
export async function measureSize(root) {
  const read = (path) => readFile(join(root, path));
  const ours = {
    element: gzipKiB(await read(BUNDLES.fx.element)),
    runtime: gzipKiB(await read(BUNDLES.fx.runtime)),
    sdk: gzipKiB(await read(BUNDLES.fx.sdk)),
  };
  const elementOnly = gzipKiB(await bundleModule({ root, entry: 'src/elements/composition/define.ts' }));
  // Where the element's bytes go: without lit, and without the compiler too (what the element's own code is).
  const withoutLit = gzipKiB(await bundleModule({ root, entry: 'src/elements/composition/define.ts', external: LIT }));
  const withoutLitAndCompiler = gzipKiB(
    await bundleModule({
      root,
      entry: 'src/elements/composition/define.ts',
      external: [...LIT, '*/runtime/compile.js'],
    }),
  );
  const peer = {
    element: gzipKiB(await read(BUNDLES.peer.element)),
    runtime: gzipKiB(await read(BUNDLES.peer.runtime)),
  };
  return {
    ours,
    elementOnly,
    parts: {
      lit: elementOnly - withoutLit,
      compiler: withoutLit - withoutLitAndCompiler,
      element: withoutLitAndCompiler,
    },
    peer,
  };
}
