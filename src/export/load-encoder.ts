/**
 * The encoder and muxer (./encode, with mediabunny: ≈ 56 KB gz), loaded when the first export starts: bundlers put
 * them in a chunk of their own. The classic scripts load them as a file of their own: ./load-encoder.classic.ts.
 */
import { encoderImport, type VideoOutputModule } from './encoder-import.js';

export const loadVideoOutput = (): Promise<VideoOutputModule> =>
  encoderImport(() => import('./encode/video-output.js'), 'its chunk');
