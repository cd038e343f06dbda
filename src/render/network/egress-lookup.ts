import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * A `lookup` for `net.connect` / `http.request` that answers with addresses checked before and never asks DNS:
 * the connection goes to exactly what was checked, whatever the name resolves to by then. (An IP literal host
 * skips `lookup` altogether; callers check literals themselves, as `publicAddresses` does.)
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  // Answered on the next tick, like a real lookup: the socket expects its listeners to be in place by then.
  return (_hostname, options, callback) =>
    process.nextTick(() => {
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const matching = addresses.filter((address) => !family || address.family === family);
      if (matching.length === 0) {
        const error: NodeJS.ErrnoException = new Error(`no checked IPv${family} address`);
        error.code = 'ENOTFOUND';
        return callback(error, '');
      }
      if (options.all)
        return callback(
          null,
          matching.map(({ address, family }) => ({ address, family })),
        );
      callback(null, matching[0]!.address, matching[0]!.family);
    });
}
