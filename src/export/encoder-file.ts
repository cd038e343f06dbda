/** The export encoder as a file of its own, beside the classic scripts in dist/ (vite.config.ts `encoder`). */
export const ENCODER_FILE = 'fx-export-encoder.js';
