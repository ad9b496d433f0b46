import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { isSummaryMessage } from '../../../src/agent/compress/index.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { PromptSource } from '../../../src/agent/prompt/source.js';
import { compressSession } from '../../../src/gateway/compress-session.js';
import { toChatHistory } from '../../../src/gateway/history.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent } from '../store/fixtures.js';

test("a compression mid-turn writes the turn's messages with its inbox id: a replay removes them and keeps the one chain", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-compress-'));
  const store = openStore({ path: path.join(dir, 'state.db'), clock: new FakeClock() });
  try {
    const { row } = store.recordInbound({ event: makeEvent({ messageId: 'm1' }), sessionKey: 'k' });
    const session = store.createSession({ key: 'k' });
    let built = 0;
    const prompts: PromptSource = { build: () => ({ text: `prompt ${++built}`, layers: [] }) };
    const earlier: ChatMessage[] = [];
    for (let i = 0; i < 12; i += 1) earlier.push({ role: 'user', content: `question ${i} ` + 'x'.repeat(200) }, { role: 'assistant', content: `answer ${i}` });
    const turn: ChatMessage[] = [{ role: 'user', content: 'the new question' }];
    const done = await compressSession({
      store,
      session,
      platform: 'test',
      prompts,
      deps: { threshold: 0.5, tailRatio: 0.2, summaryMaxTokens: 500, contextLength: () => 1000, summarise: async () => 'the summary' },
      messages: [...earlier, ...turn],
      overheadTokens: 0,
      countTokens: (m) => Math.ceil((m.content ?? '').length / 4),
      force: false,
      inboxId: row.id,
      turnMessages: turn.length,
      signal: new AbortController().signal,
      scrub: (t) => t,
      logger: pino({ level: 'silent' }),
    });
    assert.equal(done.outcome, 'summarised');
    assert.notEqual(done.session.id, session.id);
    assert.equal(done.session.parentSessionId, session.id);
    assert.equal(done.systemPrompt, 'prompt 1', 'a fresh system prompt for the new session');
    assert.equal(store.activeSession({ key: 'k' })?.id, done.session.id, 'the old session ended, the new one is active');
    // A replay of the turn deletes its messages; the summary and the earlier tail stay, no second chain link.
    store.deleteTurnMessages({ inboxId: row.id });
    const kept = toChatHistory({ messages: store.history({ sessionId: done.session.id }) });
    assert.ok(kept.some((m) => isSummaryMessage(m)), 'the summary stays');
    assert.ok(!kept.some((m) => m.content === 'the new question'), "the turn's own message is not there twice on replay");
    assert.equal(store.listSessions({ limit: 10 }).length, 2);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
