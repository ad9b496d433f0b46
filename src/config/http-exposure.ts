import { BlockList, isIP } from 'node:net';
import type { GatewayConfig } from './schema.js';
import type { ConfigWarning } from './validate.js';

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

/**
 * A warning when the HTTP server is enabled on a non-loopback host: allowed (e.g. behind a proxy), but then
 * webhooks and /healthz are reachable from the network and webhook signatures are the only protection.
 */
export function httpExposureWarnings(params: { config: GatewayConfig; file: string }): ConfigWarning[] {
  const { enabled, host } = params.config.gateway.http;
  if (!enabled || isLoopbackHost({ host })) return [];
  return [
    {
      file: params.file,
      keyPath: 'gateway.http.host',
      message:
        `${params.file}: gateway.http.host: ${host} is not a loopback address, so webhooks and /healthz will be reachable ` +
        'from the network and webhook signatures are then the only protection (use 127.0.0.1 unless the platforms or a proxy must reach this host)',
    },
  ];
}
