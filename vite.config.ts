// Library builds, one per mode: `vite build` (ES module entry `fx-sdk`), `--mode standalone` (the same module with
// lit and zod inside, for a plain `<script type="module">` from a CDN or static folder), `--mode node`
// (`fx-sdk/node`), `--mode iife` (classic-script bundle exposing `window.fx`), `--mode player` (classic-script
// `<fx-composition>` alone), `--mode encoder` (the export encoder the classic scripts load beside themselves),
// `--mode runtime` (the in-frame runtime `fx-runtime.js`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };
import { ENCODER_FILE } from './src/export/encoder-file.js';

const external = Object.keys(pkg.dependencies).map((name) => new RegExp(`^${name}(/|$)`));

const targets = {
  es: { entry: 'src/index.ts', name: undefined, format: 'es', fileName: 'fx-sdk.js', external },
  // No bare specifiers left: a browser imports it by URL with no import map.
  standalone: { entry: 'src/index.ts', name: undefined, format: 'es', fileName: 'fx-sdk.standalone.js', external: [] },
  // fx-sdk/node: analysis in Node, with the DOMParser of dom-parser.node.ts (its parse5 and linkedom stay imports).
  node: {
    entry: 'src/node.ts',
    name: undefined,
    format: 'es',
    fileName: 'fx-node.js',
    external: [...external, /^(parse5|linkedom)(\/|$)/, /^node:/],
  },
  iife: { entry: 'src/iife.ts', name: 'fx', format: 'iife', fileName: 'fx.iife.js', external: [] },
  // No exports, so the name makes no global; Vite asks for one with every IIFE.
  player: {
    entry: 'src/player.iife.ts',
    name: 'fxPlayer',
    format: 'iife',
    fileName: 'fx-player.iife.js',
    external: [],
  },
  // The export encoder of the classic scripts, which load it by URL on the first export (load-encoder.classic.ts).
  encoder: {
    entry: 'src/export/encode/video-output.ts',
    name: undefined,
    format: 'es',
    fileName: ENCODER_FILE,
    external: [],
  },
  runtime: {
    entry: 'src/runtime/frame/index.ts',
    name: '__fxRuntime',
    format: 'iife',
    fileName: 'fx-runtime.js',
    external: [],
  },
} as const;

const mediabunnyVersion = JSON.parse(readFileSync('node_modules/mediabunny/package.json', 'utf8')).version;
/**
 * mediabunny (the in-browser export's muxer) is bundled, not a dependency: it brings @types/dom-webcodecs, whose
 * globals clash with TypeScript 5.8+'s own DOM types in every app that checks its libraries. Its MPL-2.0 asks that
 * whoever gets the code can get its source: the chunk that carries it says where.
 */
const mediabunnyNotice = (moduleIds: readonly string[]) =>
  moduleIds.some((id) => id.includes('/node_modules/mediabunny/'))
    ? `/*! Contains mediabunny ${mediabunnyVersion} (MPL-2.0, https://mozilla.org/MPL/2.0/): its source is at ` +
      'https://github.com/Vanilagy/mediabunny and in the mediabunny package on npm. */'
    : '';

/** dist/fx-runtime.js without its source-map comment (the map is not next to the frames it runs in). */
const runtimeScript = () => readFileSync('dist/fx-runtime.js', 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');

export default defineConfig(({ mode }) => {
  const target = targets[mode as keyof typeof targets] ?? targets.es;
  const embedsRuntime = target !== targets.runtime && target !== targets.node && target !== targets.encoder;
  const classicEncoder = fileURLToPath(new URL('./src/export/load-encoder.classic.ts', import.meta.url));
  return {
    // The browser builds carry the runtime's code (built first, see scripts/build.mjs): every bundler, a CDN page and
    // a classic script then need no second file, and the frame no second download. A classic script has no
    // import.meta (src/elements/composition/runtime-url.ts falls back for it).
    define: {
      ...(target.format === 'iife' ? { 'import.meta.url': 'undefined' } : {}),
      ...(embedsRuntime ? { __FX_RUNTIME_SCRIPT__: JSON.stringify(runtimeScript()) } : {}),
    },
    // A classic script is one file: its export encoder is a file beside it (ENCODER_FILE), not a chunk.
    resolve: {
      alias: target.format === 'iife' ? [{ find: /^\.\/load-encoder\.js$/, replacement: classicEncoder }] : [],
    },
    build: {
      target: 'es2022',
      emptyOutDir: false,
      sourcemap: true,
      lib: {
        entry: target.entry,
        name: target.name,
        formats: [target.format],
        fileName: () => target.fileName,
      },
      rollupOptions: {
        external: [...target.external],
        // Escapes, not UTF-8: a page without `<meta charset="utf-8">` would decode the controls' "1×" as "1Ã—".
        output: { charset: 'ascii', postBanner: (chunk) => mediabunnyNotice(chunk.moduleIds) },
      },
    },
  };
});
