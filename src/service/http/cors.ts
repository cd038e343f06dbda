import { cors } from 'hono/cors';
import { Header } from '../../wire/constants.js';

/**
 * Pages on any origin may call the API (`<fx-render-button>`, the browser client). Safe with `*`: the API takes
 * bearer credentials only — never cookies — so a page can act only with a credential it already holds.
 */
export const apiCors = () =>
  cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: [
      Header.authorization,
      Header.contentType,
      Header.idempotencyKey,
      Header.range,
      Header.ifRange,
      Header.requestId,
    ],
    exposeHeaders: [
      Header.requestId,
      Header.retryAfter,
      Header.idempotentReplayed,
      Header.wwwAuthenticate,
      Header.contentLength,
      Header.contentRange,
      Header.acceptRanges,
    ],
    maxAge: 600,
  });
