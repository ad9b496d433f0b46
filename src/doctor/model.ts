import type { GatewayConfig } from '../config/schema.js';
import { modelProblem } from '../gateway/ops/model-check.js';
import type { Profile } from '../home/profile.js';
import type { Clock } from '../core/clock.js';
import { describeNetworkError, hostOf } from '../../adapters/kit/net-error.js';
import { formatSeconds, withTimeout } from '../util/timeout.js';
import { line, type CheckLine } from '../core/check-line.js';

/** How long the model endpoint gets to answer. */
export const MODEL_CHECK_TIMEOUT_MS = 3_000;

const name = 'model endpoint';

/** The model ids in a /models answer ({ data: [{ id }] }), or undefined when it is not that shape. */
function modelIds(body: unknown): string[] | undefined {
  if (body === null || typeof body !== 'object' || !('data' in body) || !Array.isArray(body.data)) return undefined;
  return body.data.flatMap((item: unknown) => (item !== null && typeof item === 'object' && 'id' in item && typeof item.id === 'string' ? [item.id] : []));
}

/** Reads the answer of GET /models into a check line. */
async function judge(params: { response: Response; config: GatewayConfig; profile: Profile; url: string }): Promise<CheckLine> {
  const { response, config, profile } = params;
  const { model } = config;
  if (response.status === 401 || response.status === 403) {
    const has = (model.api_key !== undefined && model.api_key !== '') || model.api_keys.length > 0;
    return line.fail(
      name,
      `${hostOf(params.url)} refused ${has ? 'the API key' : 'to answer without an API key'} (HTTP ${response.status})`,
      has
        ? `Check model.api_key in ${profile.configPath} (or OPENAI_API_KEY in ${profile.envPath}): it is wrong, revoked or for another provider.`
        : `Set OPENAI_API_KEY=... in ${profile.envPath} (or model.api_key in ${profile.configPath}).`,
    );
  }
  if (response.status === 404) {
    return line.warn(name, `${hostOf(params.url)} answers, but GET ${params.url} is 404 (some servers do not list models)`, 'If chats fail too, check that model.base_url ends where the API starts (often /v1).');
  }
  if (!response.ok) return line.fail(name, `${hostOf(params.url)} answered HTTP ${response.status} to GET /models`, 'The model server has a problem; check its logs or status page, then try again.');
  const ids = modelIds(await response.json().catch(() => undefined));
  if (ids !== undefined && ids.length > 0 && !ids.includes(model.name)) {
    const some = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', ...' : '');
    return line.warn(name, `${hostOf(params.url)} answers, but does not list model "${model.name}" (it has ${some})`, `Set model.name in ${profile.configPath} to a model the server has.`);
  }
  return line.ok(name, `${model.base_url} answers${ids === undefined ? '' : ` (${ids.length} model${ids.length === 1 ? '' : 's'}, "${model.name}" among them)`}`);
}

/** GET {base_url}/models with the API key within a short timeout: reachable? key accepted? model known? */
export async function modelEndpointCheck(params: { config: GatewayConfig; profile: Profile; clock: Clock; timeoutMs?: number; signal?: AbortSignal }): Promise<CheckLine> {
  const { config, profile } = params;
  const problem = modelProblem({ config, configPath: profile.configPath, envPath: profile.envPath });
  if (problem !== null) {
    const [first, ...rest] = problem.split('\n');
    return line.fail(name, first ?? problem, rest.join(' ') || undefined);
  }
  const url = `${config.model.base_url.replace(/\/+$/, '')}/models`;
  const key = config.model.api_key ?? config.model.api_keys[0];
  const ms = params.timeoutMs ?? MODEL_CHECK_TIMEOUT_MS;
  return withTimeout({
    clock: params.clock,
    ms,
    ...(params.signal ? { signal: params.signal } : {}),
    run: async (signal) => {
      try {
        const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal });
        return await judge({ response, config, profile, url });
      } catch (error) {
        const detail = describeNetworkError({ error, signal, what: hostOf(url) });
        const fix = signal.aborted
          ? `The server at ${config.model.base_url} did not answer within ${formatSeconds(ms)}: is it overloaded or behind a firewall?`
          : `Start the model server, or set model.base_url in ${profile.configPath} to where it listens.`;
        return line.fail(name, detail, fix);
      }
    },
  });
}
