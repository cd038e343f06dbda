/**
 * The reference service with its authorization server, as a process of its own for the browser suite
 * (test/fixtures/oauth-service.mjs starts it): `node --import tsx oauth-service-process.ts <redirect URI>…` prints
 * `listening {"url","issuer"}` once ready. Every sign-in is the account `wtr` (devAutoLogin). Exits on SIGTERM or
 * when its parent (the test runner) goes away and closes stdin.
 */
import { startOAuthService } from '../../service/helpers/oauth-flow.js';

const redirectUris = process.argv.slice(2);
if (redirectUris.length === 0) throw new Error('usage: oauth-service-process.ts <redirect URI>…');
const service = await startOAuthService({ oauth: { browserRedirectUris: redirectUris, devAutoLogin: 'wtr' } });
console.log(`listening ${JSON.stringify({ url: service.url, issuer: service.issuer })}`);
const stop = () => void service.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.stdin.once('end', stop).resume();
