// Library builds, one per mode: `vite build` (ES module entry `fx-sdk`), `--mode standalone` (the same module with
// lit and zod inside, for a plain `<script type="module">` from a CDN or static folder), `--mode node`
// (`fx-sdk/node`), `--mode iife` (classic-script bundle exposing `window.fx`), `--mode player` (classic-script
// `<fx-composition>` alone), `--mode runtime` (the in-frame runtime `fx-runtime.js`).
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

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
  runtime: {
    entry: 'src/runtime/frame/index.ts',
    name: '__fxRuntime',
    format: 'iife',
    fileName: 'fx-runtime.js',
    external: [],
  },
} as const;

/** dist/fx-runtime.js without its source-map comment (the map is not next to the frames it runs in). */
const runtimeScript = () => readFileSync('dist/fx-runtime.js', 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');

export default defineConfig(({ mode }) => {
  const target = targets[mode as keyof typeof targets] ?? targets.es;
  const embedsRuntime = target !== targets.runtime && target !== targets.node;
  return {
    // The browser builds carry the runtime's code (built first, see scripts/build.mjs): every bundler, a CDN page and
    // a classic script then need no second file, and the frame no second download. A classic script has no
    // import.meta (src/elements/composition/runtime-url.ts falls back for it).
    define: {
      ...(target.format === 'iife' ? { 'import.meta.url': 'undefined' } : {}),
      ...(embedsRuntime ? { __FX_RUNTIME_SCRIPT__: JSON.stringify(runtimeScript()) } : {}),
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
        output: { charset: 'ascii' },
      },
    },
  };
});
