import OpenAI from 'openai';
import type { GatewayConfig } from '../../config/schema.js';
import type { Clock } from '../../core/clock.js';
import type { AgentLogger } from '../errors.js';
import { NO_KEY } from './keys.js';
import { CredentialPool, type CredentialStateStore } from './pool.js';
import { ModelRoute, type RouteTarget } from './route.js';


/** The keys of a model entry: api_key first, then api_keys, without repeats. */
export function keysOf(params: { apiKey?: string | undefined; apiKeys?: readonly string[] | undefined }): string[] {
  return [...new Set([...(params.apiKey ? [params.apiKey] : []), ...(params.apiKeys ?? [])])];
}

/** One target with a client per key (made once, on first use). */
function target(params: {
  name: string;
  baseURL: string;
  keys: readonly string[];
  strategy: GatewayConfig['model']['key_strategy'];
  timeoutMs: number;
  clock: Clock;
  store?: CredentialStateStore | undefined;
  /** Tests point the SDK at a fetch of their own. */
  fetch?: typeof fetch | undefined;
}): RouteTarget {
  const keyless = params.keys.length === 0;
  const pool = new CredentialPool({
    keys: keyless ? [NO_KEY] : params.keys,
    strategy: params.strategy,
    clock: params.clock,
    store: keyless ? undefined : params.store,
  });
  const clients = new Map<string, OpenAI>();
  return {
    name: params.name,
    baseURL: params.baseURL,
    pool,
    keyless,
    client: (key) => {
      let client = clients.get(key.fingerprint);
      if (!client) {
        client = new OpenAI({
          apiKey: key.key,
          baseURL: params.baseURL,
          maxRetries: 0,
          timeout: params.timeoutMs,
          ...(params.fetch ? { fetch: params.fetch } : {}),
        });
        clients.set(key.fingerprint, client);
      }
      return client;
    },
  };
}

/** The route a config describes: model (api_key + api_keys, key_strategy), then model.fallbacks in order. */
export function routeFromConfig(params: {
  config: Pick<GatewayConfig, 'model' | 'timezone'>;
  clock: Clock;
  store?: CredentialStateStore | undefined;
  logger?: AgentLogger | undefined;
  fetch?: typeof fetch | undefined;
}): ModelRoute {
  const { model } = params.config;
  const common = {
    strategy: model.key_strategy,
    timeoutMs: model.request_timeout,
    clock: params.clock,
    store: params.store,
    fetch: params.fetch,
  };
  const targets = [
    target({ ...common, name: model.name, baseURL: model.base_url, keys: keysOf({ apiKey: model.api_key, apiKeys: model.api_keys }) }),
    ...model.fallbacks.map((f) =>
      target({ ...common, name: f.name, baseURL: f.base_url ?? model.base_url, keys: keysOf({ apiKey: f.api_key, apiKeys: f.api_keys }) }),
    ),
  ];
  return new ModelRoute({
    targets,
    clock: params.clock,
    maxRetries: model.max_retries,
    idleTimeoutMs: model.request_timeout,
    logger: params.logger,
    timeZone: params.config.timezone,
  });
}
