// The plain Rollup setup: node-resolve and nothing else (no asset or CommonJS plugin). The runner copies
// index.html and the composition into dist/.
import { nodeResolve } from '@rollup/plugin-node-resolve';

export default {
  input: 'src/main.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve({ browser: true })],
};
