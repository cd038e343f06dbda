/** Embedded defaults of `main.ts` and `admin.ts`. */
export const DEFAULT_DATA_DIR = '.fx/service';
export const DEFAULT_PORT = 8787;
