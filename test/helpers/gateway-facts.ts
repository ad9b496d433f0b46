import type { AppConfig } from '../../src/app/config-schema.js';
import type { GatewayFacts } from '../../src/core/platform.js';
import type { Profile } from '../../src/home/profile.js';

/** The gateway facts a platform factory gets, as src/app/platforms.ts gives them, from a parsed config. */
export function gatewayFacts(params: { profile: Profile; config: Pick<AppConfig, 'stream' | 'gateway'> }): GatewayFacts {
  const { http } = params.config.gateway;
  return { profileName: params.profile.name, cursor: params.config.stream.cursor, http: { enabled: http.enabled, host: http.host, port: http.port } };
}
