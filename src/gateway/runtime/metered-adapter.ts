import type { PlatformAdapter } from '../../core/adapter.js';
import { RateLimitError } from '../../core/errors.js';
import { forwardedProperty } from '../../util/forward-property.js';
import type { GatewayMetrics } from '../ops/metrics.js';

/** The adapter calls whose 429 the gateway waits out: the pacer retries sends, edits and finds; typing holds the chat. */
const WAITED: ReadonlySet<PropertyKey> = new Set(['send', 'edit', 'resolveSend', 'typing']);

/**
 * `adapter` with every outbound platform call counted in `metrics`: each send and edit that reached the platform is a
 * message out (whoever made it: a turn's reply, a command reply, a pairing code, an approval or clarify prompt, a
 * send_message, a job's delivery, a review notice), and each 429 a waited call met is a rate limit waited. The adapter
 * slot wraps every adapter with it, so all of a gateway's platform calls pass here once. Without metrics: `adapter`.
 */
export function meteredAdapter(params: { adapter: PlatformAdapter; metrics: GatewayMetrics | undefined }): PlatformAdapter {
  const { adapter, metrics } = params;
  if (metrics === undefined) return adapter;
  const platform = adapter.name;
  const counted = <A extends unknown[], R>(prop: PropertyKey, fn: (...args: A) => Promise<R>): ((...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const value = await fn(...args);
        if (prop === 'send' || prop === 'edit') metrics.outbound({ platform, kind: prop });
        return value;
      } catch (error) {
        if (error instanceof RateLimitError) metrics.rateLimited({ platform });
        throw error;
      }
    };
  return new Proxy(adapter, {
    get(target, prop) {
      const value = forwardedProperty({ target, prop });
      return typeof value === 'function' && WAITED.has(prop) ? counted(prop, value as (...args: unknown[]) => Promise<unknown>) : value;
    },
  });
}
