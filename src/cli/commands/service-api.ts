import { ServiceRole } from '../../service/config.js';
import { serviceCommand } from './service.js';

/** `fx service api`: the /v3 API without renders (see service.ts). */
export const command = serviceCommand(ServiceRole.api);
