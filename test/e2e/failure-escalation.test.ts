import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dm, owner, telegramHarness } from '../helpers/telegram-harness.js';

/** The tool results of a request, in order. */
function toolResults(messages: readonly Record<string, unknown>[] | undefined): string[] {
  return (messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
}

test('three failing terminal calls in a turn: the second says change approach, the third stop and ask; the clarify question reaches the Telegram chat', { timeout: 60_000 }, async () => {
  const { h, fake } = await telegramHarness({ config: { skills: { review: false }, memory: { review_interval: 1000 } } });
  try {
    h.fake.setResponder((request) => {
      const results = toolResults(request.body.messages);
      const last = results.at(-1) ?? '';
      if (last.includes('stop retrying it')) return { toolCalls: [{ name: 'clarify', arguments: { question: 'The backup folder is missing. Where is it?' } }] };
      if (last.startsWith('/srv/backups')) return { text: 'Found it.' };
      if (results.length < 3) return { toolCalls: [{ name: 'terminal', arguments: { command: `ls /nonexistent-backups-${results.length}` } }] };
      return { text: 'unexpected' };
    });
    fake.pushMessage({ chat: dm, from: owner, text: 'check the backups' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.startsWith('❓ The backup folder is missing')), timeoutMs: 30_000 });
    const asked = h.fake.requests.at(-1);
    const results = toolResults(asked?.body.messages);
    assert.equal(results.length, 3);
    assert.ok(!(results[0] ?? '').includes('[terminal '), 'the first failure is answered as it is');
    assert.match(results[1] ?? '', /\n\[terminal failed the same way twice: do not repeat the call; change your approach\.\]$/);
    assert.match(results[2] ?? '', /\n\[terminal has failed the same way 3 times in this turn: stop retrying it\. Ask the owner with the clarify tool what to do, saying what you tried and what failed\.\]$/);
  } finally {
    await h.stop();
    await fake.close();
  }
});
