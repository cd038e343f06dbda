/** Embedded defaults of `main.ts` and `admin.ts`. */
export const DEFAULT_DATA_DIR = '.fx/service';
export const DEFAULT_PORT = 8787;
/** The environment variable of `ServiceConfig.role` (`embedded`, `api`, `worker`). */
export const ROLE_ENV = 'FX_SERVICE_ROLE';
