import type { GatewayConfig, PlatformName } from '../config/schema.js';
import type { CredentialCheck, PlatformBlock } from '../core/platform-descriptor.js';
import type { HttpFacts } from '../core/platform.js';
import type { Clock } from '../core/clock.js';
import { formatSeconds, withTimeout } from '../util/timeout.js';
import { line, type CheckLine } from '../core/check-line.js';
import { errorMessage } from '../util/error-text.js';

/** How long one platform's API gets to answer. */
export const CREDENTIAL_CHECK_TIMEOUT_MS = 5_000;

/** Runs one check; a check that throws (against its contract) or overruns still gives a line. */
async function runOne(params: { name: PlatformName; check: CredentialCheck<PlatformBlock>; config: PlatformBlock; http: HttpFacts; clock: Clock; timeoutMs: number }): Promise<CheckLine> {
  const { name } = params;
  try {
    const result = await withTimeout({
      clock: params.clock,
      ms: params.timeoutMs,
      run: (signal) =>
        Promise.race([
          params.check({ config: params.config, signal, http: params.http }),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
        ]),
    });
    return result.ok ? line.ok(name, result.detail) : line.fail(name, result.detail, result.hint);
  } catch (error) {
    const detail = errorMessage(error);
    return line.fail(name, `credentials check failed: ${detail}`, `The ${name} API did not answer within ${formatSeconds(params.timeoutMs)}, or the check broke; try again, and see \`hermes logs\`.`);
  }
}

/** Checks the credentials of every enabled platform, in parallel; platforms without a check get a "!". */
export async function credentialLines(params: {
  config: GatewayConfig;
  clock: Clock;
  checks: Partial<Record<PlatformName, CredentialCheck<PlatformBlock>>>;
  timeoutMs?: number;
}): Promise<CheckLine[]> {
  const enabled = Object.entries(params.config.platforms).filter(([, block]) => block.enabled);
  if (enabled.length === 0) return [line.warn('platforms', 'none enabled', 'Set platforms.<name>.enabled: true in config.yaml (or talk to the agent with `hermes chat`).')];
  return Promise.all(
    enabled.map(([name, block]) => {
      const check = params.checks[name];
      if (check === undefined) return Promise.resolve(line.warn(name, 'enabled, but this version of hermes cannot check its credentials yet'));
      return runOne({ name, check, config: block, http: params.config.gateway.http, clock: params.clock, timeoutMs: params.timeoutMs ?? CREDENTIAL_CHECK_TIMEOUT_MS });
    }),
  );
}
