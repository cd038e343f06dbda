// The runner copies index.html and the composition into dist/ (public/ → dist/).
import { fileURLToPath } from 'node:url';

export default {
  entry: './src/index.js',
  output: { path: fileURLToPath(new URL('./dist/', import.meta.url)), filename: 'main.js', publicPath: '/' },
};
