import { isLoopbackHost } from '../util/loopback.js';
import type { GatewayConfig } from './schema.js';
import type { ConfigWarning } from './validate.js';

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
