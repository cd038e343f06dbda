/**
 * The address of the client behind a request. Behind a reverse proxy every connection comes from the proxy; the
 * proxy names the client in `X-Forwarded-For`, which only a trusted proxy may be believed about (anyone can send the
 * header). With trusted proxies set, the client is the last address of the chain that is not one of them.
 */
import { BlockList, isIP } from 'node:net';

/** The proxies whose `X-Forwarded-For` is believed: addresses and CIDR ranges, IPv4 or IPv6. */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly size: number;

  /** Throws an `Error` naming an entry that is neither an address nor a CIDR range. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', bits, ...rest] = entry.split('/');
      const family = isIP(address);
      const prefix = bits === undefined ? undefined : Number(bits);
      const max = family === 6 ? 128 : 32;
      if (
        family === 0 ||
        rest.length > 0 ||
        (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max))
      )
        throw new Error(`an IP address or CIDR range such as 10.0.0.0/8, got ${JSON.stringify(entry.slice(0, 100))}`);
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#list.addAddress(address, type);
      else this.#list.addSubnet(address, prefix, type);
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.#list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
const unmapped = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * The client's address: the connection's peer, or — when the peer is a trusted proxy — the rightmost address of
 * `forwardedFor` (`X-Forwarded-For`, each proxy appending the one it saw) that is not a trusted proxy.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  const direct = unmapped(peer ?? 'unknown');
  if (trusted.size === 0 || !trusted.has(direct) || !forwardedFor) return direct;
  const chain = forwardedFor.split(',').map((entry) => unmapped(entry.trim()));
  for (let index = chain.length - 1; index >= 0; index--) {
    const hop = chain[index]!;
    if (isIP(hop) === 0) return direct;
    if (!trusted.has(hop)) return hop;
  }
  return chain[0]!;
}
