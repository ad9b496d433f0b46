import type { AIAgent } from '../../agent/agent.js';
import type { InboxRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { EditRequest, OutboundMessage, PlatformAdapter } from '../../core/adapter.js';
import type { GatewayMetrics } from './metrics.js';

export type { GatewayMetrics } from './metrics.js';
import { forwardedProperty } from '../../util/forward-property.js';
import type { TurnDeps } from '../turns/deps.js';

/**
 * A turn's deps that feed `metrics`: its adapter notes the first and last send (the slot's adapter counts them); its
 * agent counts model calls and notes the last token; its end counts the turn and observes both latencies.
 */
export function meteredTurn(params: { deps: TurnDeps; metrics: GatewayMetrics | undefined; row: InboxRow; clock: Clock }): TurnDeps {
  const { deps, metrics, row, clock } = params;
  if (metrics === undefined) return deps;
  const platform = row.event.platform;
  const times: { firstSend?: number; lastOut?: number; lastToken?: number } = {};
  // Messages out and 429s are counted by the slot's adapter (metered-adapter.ts); the turn only notes when it sent.
  const timed = async <T>(kind: 'send' | 'edit', op: () => Promise<T>): Promise<T> => {
    const value = await op();
    if (kind === 'send') times.firstSend ??= clock.now();
    times.lastOut = clock.now();
    return value;
  };
  const adapter = new Proxy(deps.adapter, {
    get(target, prop) {
      if (prop === 'send') return (message: OutboundMessage) => timed('send', () => target.send(message));
      if (prop === 'edit') return (request: EditRequest) => timed('edit', () => target.edit(request));
      return forwardedProperty({ target, prop });
    },
  }) satisfies PlatformAdapter;
  const agent = new Proxy(deps.agent, {
    get(target, prop) {
      if (prop === 'run') {
        return (run: Parameters<AIAgent['run']>[0]) =>
          target.run({
            ...run,
            onTextDelta: (delta) => {
              times.lastToken = clock.now();
              run.onTextDelta(delta);
            },
            // Each request the turn's agent makes, retries included (callModel reports them).
            onModelCall: (call) => {
              metrics.modelCall({ purpose: 'turn', outcome: call.outcome });
              run.onModelCall?.(call);
            },
          });
      }
      return forwardedProperty({ target, prop });
    },
  }) satisfies AIAgent;
  const onFinished: TurnDeps['onFinished'] = (end) => {
    // A replayed turn (after a restart) waited for the gateway, not for the answer: its first send is not observed.
    const firstSendMs = times.firstSend === undefined || row.attempts > 0 ? undefined : Math.max(0, times.firstSend - row.receivedAt);
    const finalLagMs = times.lastToken === undefined || times.lastOut === undefined ? undefined : Math.max(0, times.lastOut - times.lastToken);
    metrics.turn({ platform, outcome: end.outcome, ...(firstSendMs === undefined ? {} : { firstSendMs }), ...(finalLagMs === undefined ? {} : { finalLagMs }) });
    deps.onFinished?.(end);
  };
  return { ...deps, adapter, agent, onFinished };
}

/** Counts a message `accept` took in (journaled and queued, deferred or a command); passes the result on. */
export function countAccepted<T extends string>(params: { metrics: GatewayMetrics | undefined; platform: string; result: T }): T {
  if (params.result !== 'duplicate' && params.result !== 'unauthorized') params.metrics?.inbound({ platform: params.platform });
  return params.result;
}
