import type { OutboundMessage } from '../src/gateway/contracts.js';
import { startHarness } from '../test/helpers/harness.js';
import { TestAdapter } from '../test/helpers/test-adapter.js';
import type { RunFigures } from './stats.js';

/**
 * The gateway path: messages accepted from the in-process test adapter, journaled, routed, answered by an
 * instant fake model over loopback HTTP, and sent back. Latency is accepted → first outbound send.
 */
export async function runGateway(params: { messages: number; chats: number }): Promise<RunFigures & { rssMb: number }> {
  const h = await startHarness({ config: { logging: { level: 'warn' } } });
  h.fake.setResponder(() => ({ text: 'ok, noted.' }));
  const firstSend = new Map<string, number>();
  const originalSend = TestAdapter.prototype.send;
  const adapter = h.adapter;
  adapter.send = async function send(this: TestAdapter, message: OutboundMessage) {
    const result = await originalSend.call(this, message);
    if (!firstSend.has(message.replyToId ?? '')) firstSend.set(message.replyToId ?? '', performance.now());
    return result;
  };
  const accepted = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  const perChat = Math.ceil(params.messages / params.chats);
  const chatWorker = async (chat: number): Promise<void> => {
    for (let i = 0; i < perChat && next < params.messages; i++) {
      next++;
      const id = `c${chat}-m${i}`;
      accepted.set(id, performance.now());
      await adapter.inject({ text: `message ${i}`, chatId: `chat-${chat}`, messageId: id });
      // Wait for this chat's answer before the next message, as a person would.
      while (!firstSend.has(id)) await new Promise((r) => setImmediate(r));
    }
  };
  await Promise.all(Array.from({ length: params.chats }, (_, c) => chatWorker(c)));
  await h.runner.waitIdle();
  const seconds = (performance.now() - started) / 1000;
  const latencies = [...accepted.entries()].map(([id, t0]) => (firstSend.get(id) ?? Number.NaN) - t0);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  await h.stop();
  return { name: 'gateway: accept → first send', messages: accepted.size, seconds, latenciesMs: latencies, rssMb };
}
