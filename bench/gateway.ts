import type { OutboundMessage } from '../src/core/adapter.js';
import { startHarness } from '../test/helpers/harness.js';
import { TestAdapter } from '../test/helpers/test-adapter.js';
import type { RunFigures } from './stats.js';

/**
 * The gateway path: messages accepted from the in-process test adapter, journaled, routed, answered by an
 * instant fake model over loopback HTTP, and sent back. Latency is accepted → first outbound send. Each
 * message has its own chat, so the 1-second per-chat edit pacing (a platform limit, by design) is not what
 * is measured; `concurrency` messages are in flight at once, as in the baseline.
 */
export async function runGateway(params: { messages: number; concurrency: number }): Promise<RunFigures & { rssMb: number; drainSeconds: number }> {
  const h = await startHarness({ config: { logging: { level: 'warn' } } });
  h.fake.setResponder(() => ({ text: 'ok, noted.' }));
  const firstSend = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const originalSend = TestAdapter.prototype.send;
  const adapter = h.adapter;
  adapter.send = async function send(this: TestAdapter, message: OutboundMessage) {
    const result = await originalSend.call(this, message);
    const id = message.replyToId ?? '';
    if (!firstSend.has(id)) {
      firstSend.set(id, performance.now());
      waiting.get(id)?.();
    }
    return result;
  };
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < params.messages) {
      const n = next++;
      const id = `m${n}`;
      const answered = new Promise<void>((resolve) => waiting.set(id, resolve));
      const t0 = performance.now();
      await adapter.inject({ text: `message ${n}`, chatId: `chat-${n}`, messageId: id });
      await answered;
      waiting.delete(id);
      latencies.push((firstSend.get(id) ?? Number.NaN) - t0);
    }
  };
  await Promise.all(Array.from({ length: params.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await h.runner.waitIdle();
  const drainSeconds = (performance.now() - started) / 1000 - seconds;
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  await h.stop();
  return { name: 'gateway: accept → first send', messages: latencies.length, seconds, latenciesMs: latencies, rssMb, drainSeconds };
}
