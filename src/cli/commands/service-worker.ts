import { ServiceRole } from '../../service/config.js';
import { serviceCommand } from './service.js';

/** `fx service worker`: renders and webhooks without HTTP (see service.ts). */
export const command = serviceCommand(ServiceRole.worker);
