import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { defineTool } from '../../src/tools/tool.js';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { say, until } from '../helpers/converse.js';

/** Which of the test tools gave the request's last message, if it ends with a tool result. */
function lastToolName(request: CapturedRequest): string | undefined {
  const last = request.body.messages?.at(-1);
  if (last?.['role'] !== 'tool') return undefined;
  return String(last['content']).startsWith('BULKY') ? 'bulky' : 'other';
}

test('a compression made mid-turn moves the rest of the turn to the new session: tools see its id, usage is recorded with it', async () => {
  const seen: (string | undefined)[] = [];
  const tools = [
    // A big tool result: the next request passes the threshold (0.5 of what the fixed part leaves of 3434) and the agent compresses mid-turn.
    defineTool({ name: 'bulky', description: 'returns a long report', input: z.object({}), parallel: 'safe', handler: async () => 'BULKY ' + 'report line with many words in it. '.repeat(160) }),
    defineTool({ name: 'whoami', description: 'tells the session', input: z.object({}), parallel: 'safe', handler: async (_a, ctx) => {
      seen.push(ctx.sessionId);
      return `session ${ctx.sessionId ?? 'none'}`;
    } }),
  ];
  const h = await startHarness({ config: { model: { context_length: 3434 }, toolsets: ['all'] }, extraTools: tools });
  try {
    h.fake.setResponder((req) => {
      if (req.body.stream !== true) return { text: 'The user chatted about the weather and asked for a report.' };
      const lastUser = [...(req.body.messages ?? [])].reverse().find((m) => m['role'] === 'user');
      const tool = lastToolName(req);
      if (tool === undefined && String(lastUser?.['content'] ?? '').includes('Run the report')) return { toolCalls: [{ name: 'bulky', arguments: {} }] };
      if (tool === 'bulky') return { toolCalls: [{ name: 'whoami', arguments: {} }] };
      return { text: 'Done. ' + 'A sentence of reply text. '.repeat(3) };
    });
    for (let i = 1; i <= 2; i += 1) await say(h, `Chat ${i}: ` + 'tell me something about the weather today please. '.repeat(8));
    const store = h.readStore();
    const first = store.listSessions({ limit: 10 });
    store.close();
    assert.equal(first.length, 1, 'no compression yet');
    const firstId = first[0]?.id ?? '';

    await say(h, 'Run the report now.');
    assert.equal(seen.length, 1, 'whoami ran once');
    const after = h.readStore();
    try {
      const sessions = after.listSessions({ limit: 10 });
      assert.equal(sessions.length, 2, 'the turn compressed into a new session');
      const active = after.activeSession({ key: sessions[0]?.key ?? '' });
      assert.ok(active && active.id !== firstId && active.parentSessionId === firstId);
      assert.equal(seen[0], active.id, 'the tool after the switch ran with the new session id, not the ended one');
      // Calls after the switch (whoami's request and the final answer) are the new session's usage.
      assert.ok(after.sessionUsage({ sessionId: active.id }).calls >= 2, 'usage of the calls after the switch goes to the new session');
      const whoamiResult = h.fake.requests.flatMap((r) => r.body.messages ?? []).find((m) => m['role'] === 'tool' && String(m['content']).startsWith('session '));
      assert.equal(whoamiResult?.['content'], `session ${active.id}`);
    } finally {
      after.close();
    }
  } finally {
    await h.stop();
  }
});
