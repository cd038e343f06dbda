import type { MiddlewareHandler } from 'hono';
import { ErrorCode, Header } from '../../wire/constants.js';
import { ServiceError } from '../errors.js';
import type { ServiceEnv } from '../http/env.js';
import type { Authenticator } from './authenticator.js';

const REALM = 'Bearer realm="fx"';
const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/**
 * Requires `Authorization: Bearer <token>` and puts the principal on the context. Runs before anything reads
 * the body or stores anything, so a refused request leaves no trace.
 */
export function bearerAuth(authenticator: Authenticator): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const header = c.req.header(Header.authorization);
    if (!header || !/^Bearer(\s|$)/i.test(header)) {
      throw new ServiceError(
        ErrorCode.authenticationRequired,
        'this endpoint needs an "Authorization: Bearer <token>" header',
        {
          param: 'Authorization',
          headers: { [Header.wwwAuthenticate]: REALM },
        },
      );
    }
    const token = BEARER.exec(header)?.[1];
    const principal = token === undefined ? undefined : await authenticator.authenticate(token);
    if (!principal) throw invalidTokenError('the bearer token is unknown, revoked or expired');
    c.set('principal', principal);
    await next();
  };
}

/**
 * 401 `invalid_token` with `WWW-Authenticate: Bearer realm="fx", error="invalid_token", error_description=…`.
 * Authenticators throw it to say why they refuse a token they recognise (e.g. an expired access token).
 * `description` must not contain `"` or `\`.
 */
export function invalidTokenError(description: string): ServiceError {
  return new ServiceError(ErrorCode.invalidToken, description, {
    param: 'Authorization',
    headers: { [Header.wwwAuthenticate]: `${REALM}, error="invalid_token", error_description="${description}"` },
  });
}
