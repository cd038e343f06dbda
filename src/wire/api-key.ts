/** What an API key may be, said once for the client and the credential store (the message names it the same way). */
export const API_KEY_RULE = '1 to 512 visible ASCII characters without spaces';

/** Visible ASCII only: anything else could not travel in the `Authorization` header, or would split or smuggle into it. */
const API_KEY = /^[\x21-\x7e]{1,512}$/;

export const isSendableApiKey = (value: unknown): boolean => typeof value === 'string' && API_KEY.test(value);
