/**
 * {@link loadVideoOutput} in the classic scripts (fx.iife.js, fx-player.iife.js; vite.config.ts puts this file in
 * place of ./load-encoder.ts): a classic script is one file, so the encoder is `fx-export-encoder.js` beside it,
 * imported by URL when the first export starts; a page that only plays previews never downloads it.
 */
import { ENCODER_FILE } from './encoder-file.js';
import { encoderImport, type VideoOutputModule } from './encoder-import.js';

/** Read while the script runs (its modules are evaluated then): afterwards `document.currentScript` is null. */
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;

export const loadVideoOutput = (): Promise<VideoOutputModule> =>
  encoderImport(
    () => import(/* @vite-ignore */ new URL(ENCODER_FILE, scriptUrl).href),
    `${ENCODER_FILE} beside the script, from ${scriptUrl.slice(0, 200)}; copy it there`,
  );
