import { describeContextLength, resolveContextLength, staticContextLength } from '../agent/tokens/context-length.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Clock } from '../core/clock.js';
import { MODEL_CHECK_TIMEOUT_MS } from './model.js';
import { line, type CheckLine } from '../core/check-line.js';

/**
 * Which context length is in force and where it comes from, e.g. "✓ context length: 128,000 tokens (from the
 * endpoint's /models)". The endpoint is asked only when `ask` (the model endpoint check passed); else the
 * config or the default is reported without a request.
 */
export async function contextLengthCheck(params: { config: GatewayConfig; clock: Clock; ask: boolean; timeoutMs?: number; signal?: AbortSignal }): Promise<CheckLine> {
  const { model } = params.config;
  const length = params.ask
    ? await resolveContextLength({
        model,
        clock: params.clock,
        timeoutMs: params.timeoutMs ?? MODEL_CHECK_TIMEOUT_MS,
        ...(params.signal ? { signal: params.signal } : {}),
      })
    : staticContextLength({ model });
  return line.ok('context length', describeContextLength({ length }));
}
