/**
 * The credential of the cloud commands, found as src/auth/node resolves it (CLOUD_API_KEY > RENDER_API_KEY > the
 * credentials file's API key), else the signed-in session `fx auth login` stored in the same file.
 */
import { CLI_CLIENT_ID, LoopbackSignIn } from '../auth/node/loopback-sign-in.js';
import { resolveNodeCredentials, type NodeCredentials } from '../auth/node/resolve.js';
import { apiKeyCredentials } from '../client/api-key.js';
import type { Credentials } from '../client/credentials.js';
import { cliError, CliErrorCode } from './errors.js';
import { fileLock } from './file-lock.js';

/** Where the reference service mounts its authorization server, under the `/v3` base URL. */
export const ISSUER_PATH = '/oauth';

export type CredentialSource = 'CLOUD_API_KEY' | 'RENDER_API_KEY' | 'file' | 'oauth';

export interface CloudCredentials {
  readonly apiUrl: string;
  readonly credentials: Credentials;
  readonly source: CredentialSource;
  readonly resolved: NodeCredentials;
  /** The signed-in session, when that is the credential. */
  readonly session?: LoopbackSignIn;
}

/** The session of the `fx-cli` client at the service's issuer, stored in the credentials file. */
export function cliSession(resolved: NodeCredentials): LoopbackSignIn {
  return new LoopbackSignIn({
    issuer: `${resolved.apiUrl}${ISSUER_PATH}`,
    clientId: CLI_CLIENT_ID,
    store: resolved.store,
    lock: fileLock(`${resolved.store.path}.lock`),
  });
}

export async function cloudCredentials(env: Readonly<Record<string, string | undefined>>): Promise<CloudCredentials> {
  const resolved = await resolveNodeCredentials({ env });
  if (resolved.apiKey) {
    return {
      apiUrl: resolved.apiUrl,
      credentials: apiKeyCredentials(resolved.apiKey.value),
      source: resolved.apiKey.source,
      resolved,
    };
  }
  const session = cliSession(resolved);
  if (!(await session.signedIn())) {
    throw cliError(
      CliErrorCode.notSignedIn,
      `no credential: CLOUD_API_KEY and RENDER_API_KEY are unset and ${resolved.store.path} holds no sign-in`,
    );
  }
  return { apiUrl: resolved.apiUrl, credentials: session, source: 'oauth', resolved, session };
}
