import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a page fetch the model asks for may not reach unless `web.allow_private`: this host (loopback), private
 * networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, and the reserved and
 * unspecified ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as their IPv4 address).
 */
const privateRanges: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const blocked = new BlockList();
for (const [network, prefix, family] of privateRanges) blocked.addSubnet(network, prefix, family);

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address ("::ffff:10.0.0.1", "::ffff:a00:1"), if it is one. */
function embeddedIpv4(params: { address: string }): string | undefined {
  const match = /^::(?:ffff:)?(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(params.address);
  if (match === null) return undefined;
  if (match[1] !== undefined) return match[1];
  const high = Number.parseInt(match[2] ?? '0', 16);
  const low = Number.parseInt(match[3] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True when `address` (an IP literal) is one a fetch may reach without `web.allow_private`. */
export function isPublicAddress(params: { address: string }): boolean {
  const address = params.address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4({ address });
    if (v4 !== undefined) return !blocked.check(v4, 'ipv4');
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

/** Why a host may not be fetched. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'EBLOCKEDADDRESS';

  constructor(params: { host: string; address: string }) {
    const what = params.host === params.address ? params.address : `${params.host} (${params.address})`;
    super(`${what} is a private, loopback or link-local address; pages there are not fetched (web.allow_private)`);
  }
}

/**
 * A `lookup` for node's http/https requests that resolves as usual and keeps only public addresses (the connection is
 * made to an address this check passed: a name that resolves elsewhere a moment later cannot slip in), failing with
 * BlockedAddressError when none is left.
 */
export function publicOnlyLookup(params: { allowed?: (address: string) => boolean } = {}): LookupFunction {
  const allowed = params.allowed ?? ((address: string) => isPublicAddress({ address }));
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const usable = addresses.filter((entry) => allowed(entry.address));
      const first = usable[0];
      if (first === undefined) {
        callback(new BlockedAddressError({ host: hostname, address: addresses[0]?.address ?? hostname }), '', 0);
        return;
      }
      if (options.all === true) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}
