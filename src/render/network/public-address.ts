import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a fetch on behalf of someone else must not reach by default: loopback, private, link-local (cloud
 * metadata), shared, reserved. Used by the renderer (what an uploaded project may load) and the service (URL
 * pages, webhooks), so both draw the line in the same place.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/**
 * IPv6 prefixes that carry an IPv4 address, and the 16-bit group where it starts: NAT64 (RFC 6052), 6to4
 * (RFC 3056), IPv4-compatible (RFC 4291), IPv4-translated (RFC 2765).
 */
const EMBEDDING: readonly [BlockList, number][] = (
  [
    ['64:ff9b::', 96, 6],
    ['2002::', 16, 1],
    ['::', 96, 6],
    ['::ffff:0:0:0', 96, 6],
  ] as const
).map(([network, prefix, group]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, 'ipv6');
  return [list, group];
});

/** The eight 16-bit groups of an IPv6 address (the URL parser writes a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [first, last] = [groups(head), groups(tail)];
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** True for a non-public address, and for anything that is not an IP address at all. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (PRIVATE.check(address, 'ipv6')) return true;
  const embedding = EMBEDDING.find(([list]) => list.check(address, 'ipv6'));
  if (!embedding) return false;
  let groups: number[];
  try {
    groups = ipv6Groups(address);
  } catch {
    return true;
  }
  const [high = 0, low = 0] = groups.slice(embedding[1], embedding[1] + 2);
  return PRIVATE.check([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'), 'ipv4');
}

/** How host names become addresses, and which addresses are off limits. */
export interface AddressRules {
  /** Every address of a host name (not called for IP literals). */
  resolve(hostname: string): Promise<readonly LookupAddress[]>;
  isPrivate(address: string): boolean;
}

const SYSTEM_RULES: AddressRules = {
  resolve: (hostname) => lookup(hostname, { all: true, verbatim: true }),
  isPrivate: isPrivateAddress,
};
let currentRules = SYSTEM_RULES;

/** The rules every guard uses unless given its own: the system resolver and {@link isPrivateAddress}. */
export const addressRules = (): AddressRules => currentRules;

/**
 * Tests only: replaces the resolver and the private-address test for every guard created from now on (the
 * renderer's and the service's build their own), so a test can stand a second loopback address in for a public
 * host that re-resolves. Returns the function that puts the previous rules back.
 */
export function unsafeReplaceAddressRules(rules: AddressRules): () => void {
  const previous = currentRules;
  currentRules = rules;
  return () => {
    currentRules = previous;
  };
}

/**
 * The addresses of a host when every one of them is public, else `undefined` (also when it does not resolve). A
 * literal IP (bracketed IPv6 too) is checked as is. Connect to exactly these addresses: resolving the name again
 * for the connection could answer differently (DNS rebinding) — see `pinnedLookup`.
 */
export async function publicAddresses(
  hostname: string,
  rules: AddressRules = currentRules,
): Promise<readonly LookupAddress[] | undefined> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: readonly LookupAddress[];
  try {
    addresses = family ? [{ address: host, family }] : await rules.resolve(host);
  } catch {
    return undefined;
  }
  return addresses.length > 0 && addresses.every(({ address }) => !rules.isPrivate(address)) ? addresses : undefined;
}
