import type { Logger } from 'pino';
import { AIAgent } from '../../agent/agent.js';
import { auxiliaryRoute } from '../../agent/auxiliary/client.js';
import type { CredentialStateStore } from '../../agent/route/pool.js';
import { routeFromConfig } from '../../agent/route/from-config.js';
import { countText } from '../../agent/tokens/encoding.js';
import type { GatewayConfig } from '../../config/schema.js';
import { memorySettingsFrom, memoryTargets, targetInfo } from '../../memory/settings.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Clock } from '../../core/clock.js';
import { REVIEW_MAX_MODEL_CALLS, reviewTimeoutMs, type ReviewOptions } from './review.js';

/**
 * The background review for a config: the review tools the main registry has (those whose definitions say `review`,
 * looked up again by name for each review), and a child agent on auxiliary.model (its own key pool, persisted in the store) when one is
 * configured, else on the main agent's route.
 */
export function reviewOptionsFrom(params: {
  config: GatewayConfig;
  registry: ToolRegistry;
  clock: Clock;
  logger: Logger;
  scrub: (text: string) => string;
  store?: CredentialStateStore | undefined;
}): ReviewOptions {
  const { config, clock, registry } = params;
  const logger = params.logger.child({ component: 'review' });
  const toolNames = registry.list().filter((tool) => tool.review === true).map((tool) => tool.name);
  const aux = auxiliaryRoute({ config });
  const auxRoute =
    aux === undefined
      ? undefined
      : routeFromConfig({
          config: {
            timezone: config.timezone,
            model: { ...config.model, name: aux.name, base_url: aux.baseURL, api_key: aux.apiKey, api_keys: [], fallbacks: [], request_timeout: aux.requestTimeoutMs },
          },
          clock,
          store: params.store,
          logger,
        });
  const model = aux?.name ?? config.model.name;
  return {
    schedule: { enabled: config.skills.review, skillInterval: config.skills.review_interval, memoryInterval: config.memory.review_interval },
    notice: config.skills.review_notice,
    toolNames,
    // The transcript's cap needs no exact count (and the tokenizer's tables would stay in memory for good): the
    // bytes-per-token ratio errs high, so the transcript only comes out a little shorter than the cap allows.
    countTokens: (text) => countText({ text, encoding: 'ratio' }),
    memoryTargets: memoryTargets.filter((target) => targetInfo({ settings: memorySettingsFrom({ config }), target }).enabled),
    timeoutMs: reviewTimeoutMs({ requestTimeoutMs: aux?.requestTimeoutMs ?? config.model.request_timeout }),
    agentFor: ({ main, sessionModel }) => {
      const tools = toolNames.map((name) => registry.get(name)).filter((tool) => tool !== undefined);
      // On the main route the review talks to the model the session talks to (its /model choice).
      const asked = aux === undefined ? sessionModel : aux.name;
      const agent = new AIAgent({
        route: auxRoute ?? main.route,
        model: asked ?? model,
        registry: new ToolRegistry({ tools }),
        maxIterations: REVIEW_MAX_MODEL_CALLS,
        maxRetries: config.model.max_retries,
        maxParallel: config.agent.max_parallel_tools,
        clock,
        requestTimeoutMs: aux?.requestTimeoutMs ?? config.model.request_timeout,
        logger,
        scrub: params.scrub,
        ...(aux?.temperature !== undefined ? { temperature: aux.temperature } : config.model.temperature !== undefined ? { temperature: config.model.temperature } : {}),
      });
      return { agent, model: asked };
    },
  };
}
