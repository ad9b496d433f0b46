import type { AdapterCapabilities } from '../../src/core/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { until } from './converse.js';
import { startHarness, type Harness } from './harness.js';
import type { ShownMessage } from './test-adapter.js';

/** A gateway whose test platform's owner is user-1, buttons on unless `buttons: false`. */
export async function startClarify(params: { buttons?: boolean; clock?: Clock; capabilities?: Partial<AdapterCapabilities>; busyPolicy?: 'interrupt' | 'queue' } = {}): Promise<Harness> {
  return startHarness({
    allow: ['user-1'],
    capabilities: { buttons: params.buttons ?? true, ...params.capabilities },
    // A fake clock paces edits in fake time; on the real one edits are 20 ms apart (these tests measure questions, not pacing).
    ...(params.clock ? { clock: params.clock } : { editIntervalMs: 20 }),
    // No background review: its model calls would take the scripted replies.
    config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 }, ...(params.busyPolicy ? { gateway: { busy_policy: params.busyPolicy } } : {}) },
  });
}

/** Scripts the model: one `clarify` call with `question` (and `choices`), then `final` as the answer. */
export function scriptClarify(h: Harness, params: { question: string; choices?: string[]; final?: string }): void {
  const args = { question: params.question, ...(params.choices ? { choices: params.choices } : {}) };
  h.fake.enqueue({ toolCalls: [{ name: 'clarify', arguments: args }] }, { text: params.final ?? 'done' });
}

/** The clarify questions shown in a chat (not the turn's tool progress line, `❓ clarify`). */
export function clarifyQuestions(h: Harness, chatId = 'chat-1'): ShownMessage[] {
  return h.adapter.shown({ chatId }).filter((m) => m.text.startsWith('❓ ') && !m.text.startsWith('❓ clarify'));
}

/** Waits for the `n`th (1-based) clarify question in the chat and returns it. */
export async function waitClarify(h: Harness, n = 1, chatId = 'chat-1'): Promise<ShownMessage> {
  await until(() => clarifyQuestions(h, chatId).length >= n, `clarify question ${n}`);
  const q = clarifyQuestions(h, chatId)[n - 1];
  if (q === undefined) throw new Error('no question');
  return q;
}

/** The result of the last `clarify` call in the model's last request (what the model was told). */
export function clarifyResult(h: Harness): string | undefined {
  const messages = h.fake.requests.at(-1)?.body.messages ?? [];
  const call = messages.flatMap((m) => (Array.isArray(m['tool_calls']) ? (m['tool_calls'] as { id: string; function: { name: string } }[]) : [])).filter((c) => c.function.name === 'clarify')
    .at(-1);
  if (call === undefined) return undefined;
  const result = messages.find((m) => m['role'] === 'tool' && m['tool_call_id'] === call.id);
  return result === undefined ? undefined : String(result['content']);
}
