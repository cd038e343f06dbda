import * as oauth from 'oauth4webapi';

/** The S256 `code_challenge` of a verifier (RFC 7636 §4.2), as sent in every authorization request. */
export const pkceChallenge = (verifier: string): Promise<string> => oauth.calculatePKCECodeChallenge(verifier);

/** A fresh verifier (32 random bytes, base64url) and its S256 challenge. */
export async function createPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  return { verifier, challenge: await pkceChallenge(verifier) };
}
