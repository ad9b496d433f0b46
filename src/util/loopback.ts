import { BlockList, isIP } from 'node:net';

/** 127.0.0.0/8 and ::1 (IPv4-mapped IPv6 addresses such as ::ffff:127.0.0.1 are checked as IPv4). */
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether `host` only accepts connections from this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(params: { host: string }): boolean {
  const host = params.host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === 'localhost.') return true;
  const family = isIP(host);
  if (family === 0) return false;
  return loopback.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
