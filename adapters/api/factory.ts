import type { PlatformFactory } from '../../src/core/platform.js';
import type { ApiConfig } from './config-schema.js';
import { ApiAdapter } from './adapter.js';

/** The model id of a profile's agent when platforms.api.model_id does not name one. */
export function defaultModelId(params: { profileName: string }): string {
  return `hermes-${params.profileName}`;
}

/**
 * Builds the API adapter entry from `platforms.api`. The allowlist is `allowed_users` when it names senders (they are
 * then the owners who answer approvals), else every configured key ('all': holding a key is the authorization). An
 * unknown sender is never offered pairing (the client could not show the code's use).
 */
export const apiFactory: PlatformFactory<ApiConfig> = ({ config: api, gateway, clock, logger }) => {
  return {
    adapter: new ApiAdapter({
      config: api,
      modelId: api.model_id ?? defaultModelId({ profileName: gateway.profileName }),
      cursor: gateway.cursor,
      httpEnabled: gateway.http.enabled,
      clock,
      logger,
    }),
    allow: api.allowed_users.length > 0 ? api.allowed_users : 'all',
    unauthorized: 'ignore',
    // Nothing rate-limits an HTTP client: the streamed text is edited in four times a second rather than once.
    editIntervalMs: 250,
  };
};
