import type { AuxiliaryComplete } from '../../agent/auxiliary/client.js';
import type { OnModelAttempt } from '../../agent/errors.js';
import type { GatewayMetrics, ModelCallPurpose } from './metrics.js';

/**
 * What a model caller of the gateway gives the model call layer (callModel, the auxiliary client) to count each request
 * it makes, retries included, under the caller's `purpose`; undefined without metrics (nothing is counted).
 */
export function modelMeter(params: { metrics: GatewayMetrics | undefined; purpose: ModelCallPurpose }): OnModelAttempt | undefined {
  const { metrics, purpose } = params;
  if (metrics === undefined) return undefined;
  return ({ outcome }) => metrics.modelCall({ purpose, outcome });
}

/** `complete` with each of its requests counted under `purpose` (an auxiliary-model caller: compression, the judge). */
export function meteredComplete(params: { complete: AuxiliaryComplete; metrics: GatewayMetrics | undefined; purpose: ModelCallPurpose }): AuxiliaryComplete {
  const onAttempt = modelMeter(params);
  if (onAttempt === undefined) return params.complete;
  const { complete } = params;
  return (request) => complete({ ...request, onAttempt });
}
