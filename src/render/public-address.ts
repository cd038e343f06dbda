import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a fetch on behalf of someone else must not reach by default: loopback, private, link-local (cloud
 * metadata), shared, reserved. Used by the renderer (what an uploaded project may load) and the service (URL
 * pages, webhooks), so both draw the line in the same place.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

/** IPv6 prefixes that carry an IPv4 address, and the 16-bit group where it starts: NAT64 (RFC 6052), 6to4 (RFC 3056), IPv4-compatible (RFC 4291). */
const EMBEDDING: readonly [BlockList, number][] = ([['64:ff9b::', 96, 6], ['2002::', 16, 1], ['::', 96, 6]] as const).map(([network, prefix, group]) => {
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

/**
 * True when every address the host name resolves to is public. A literal IP is checked as is. (A host that
 * re-resolves differently between this check and the fetch is not covered; deployments put an egress proxy in
 * front when that matters — see docs/service.md.)
 */
export async function resolvesToPublicAddresses(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return !isPrivateAddress(host);
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.length > 0 && addresses.every(({ address }) => !isPrivateAddress(address));
  } catch {
    return false;
  }
}
