/**
 * What the `/v3` client asks of whoever holds the caller's credentials: an API key (`apiKeyCredentials`) or a
 * signed-in user (`src/auth`). The client never stores or refreshes credentials itself.
 */
export interface Credentials {
  /** The `Authorization` header value for the next request (`Bearer …`), or `undefined` to send none. */
  authorization(): Promise<string | undefined>;
  /**
   * Called after a 401 answered a request sent with `rejected` (the value `authorization()` gave). Resolves `true`
   * once a different credential is available (the client then replays the request once), `false` when there is
   * none. Many concurrent 401s must cause one refresh (single-flight), across tabs where that applies; a caller
   * whose `rejected` credential was already replaced gets `true` without a new refresh.
   */
  refresh(rejected: string | undefined): Promise<boolean>;
}
