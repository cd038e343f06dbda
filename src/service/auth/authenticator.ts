/** Who is calling: the account billed and the credential used (idempotency keys are scoped to it). */
export interface Principal {
  readonly accountId: string;
  readonly credentialId: string;
  readonly kind: 'api_key' | 'oauth';
}

/**
 * Turns a bearer token into a principal, or undefined when the token is not one this authenticator knows or is
 * no longer valid. Implementations: API keys here; the OAuth access-token verifier plugs in the same way.
 * An authenticator may throw `invalidTokenError(description)` (bearer.ts) to say why it refuses a token it
 * recognises as its own, e.g. an expired access token; the chain then stops there.
 */
export interface Authenticator {
  authenticate(token: string): Promise<Principal | undefined>;
}

/** Tries each authenticator in order; the first that recognises the token wins. */
export function chainAuthenticators(authenticators: readonly Authenticator[]): Authenticator {
  return {
    async authenticate(token) {
      for (const authenticator of authenticators) {
        const principal = await authenticator.authenticate(token);
        if (principal) return principal;
      }
      return undefined;
    },
  };
}
