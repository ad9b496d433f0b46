import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { isSummaryMessage } from '../../../src/agent/compress/index.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { PromptSource } from '../../../src/agent/prompt/source.js';
import { compressSession } from '../../../src/gateway/sessions/compress.js';
import { toChatHistory } from '../../../src/gateway/sessions/history.js';
import { SessionChangedError } from '../../../src/store/errors.js';
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
      clock: new FakeClock(),
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

test('a session switch that fails part-way (a message insert refused) leaves the old session current and untouched, and no new session', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-compress-'));
  // A real SQLite failure in the middle of the switch: the insert of the tail's last message is refused.
  const configure = (db: import('better-sqlite3').Database): void => {
    db.exec(`CREATE TRIGGER refuse_tail BEFORE INSERT ON messages WHEN NEW.content = 'the refused question' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
  };
  const store = openStore({ path: path.join(dir, 'state.db'), clock: new FakeClock(), configure });
  try {
    const session = store.createSession({ key: 'k', title: 'the title' });
    store.setSessionPrompt({ sessionId: session.id, prompt: { text: 'old prompt', layers: [] } });
    const earlier: ChatMessage[] = [];
    for (let i = 0; i < 12; i += 1) earlier.push({ role: 'user', content: `question ${i} ` + 'x'.repeat(200) }, { role: 'assistant', content: `answer ${i}` });
    for (const message of earlier) store.appendMessage({ sessionId: session.id, role: message.role, content: message.content ?? '' });
    const before = store.history({ sessionId: session.id });
    await assert.rejects(
      compressSession({
        store,
        session,
        platform: 'test',
        prompts: { build: () => ({ text: 'new prompt', layers: [] }) },
        deps: { threshold: 0.5, tailRatio: 0.2, summaryMaxTokens: 500, contextLength: () => 1000, summarise: async () => 'the summary' },
        messages: [...earlier, { role: 'user', content: 'the refused question' }],
        overheadTokens: 0,
        countTokens: (m) => Math.ceil((m.content ?? '').length / 4),
        force: false,
        inboxId: null,
        turnMessages: 1,
        signal: new AbortController().signal,
        scrub: (t) => t,
        clock: new FakeClock(),
        logger: pino({ level: 'silent' }),
      }),
      /injected failure/,
    );
    const sessions = store.listSessions({ limit: 10 });
    assert.equal(sessions.length, 1, 'no half-built new session');
    assert.equal(store.activeSession({ key: 'k' })?.id, session.id, 'the old session is still the current one');
    assert.equal(store.getSession({ sessionId: session.id })?.endedAt, null, 'the old session was not ended');
    assert.deepEqual(store.history({ sessionId: session.id }), before, 'its messages are untouched');
    assert.equal(store.sessionPrompt({ sessionId: session.id })?.text, 'old prompt');
    assert.equal(store.search({ query: 'summary', limit: 5 }).length, 0, 'no summary row left in the index');
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('continueSession refuses an ended session and changes nothing', () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  try {
    const session = store.createSession({ key: 'k' });
    store.endSession({ sessionId: session.id });
    assert.throws(() => store.continueSession({ fromSessionId: session.id, messages: [{ role: 'user', content: 'x' }], prompt: { text: 'p', layers: [] } }), /has ended/);
    assert.equal(store.listSessions({ limit: 10 }).length, 1);
    const open = store.createSession({ key: 'k2', title: 't' });
    const next = store.continueSession({ fromSessionId: open.id, messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi' }], prompt: { text: 'p2', layers: [] } });
    assert.equal(next.parentSessionId, open.id);
    assert.equal(next.key, 'k2');
    assert.equal(next.title, 't');
    assert.equal(next.messageCount, 2);
    assert.deepEqual(store.history({ sessionId: next.id }).map((m) => m.content), ['hello', 'hi']);
    assert.equal(store.sessionPrompt({ sessionId: next.id })?.text, 'p2');
    assert.equal(store.activeSession({ key: 'k2' })?.id, next.id);
  } finally {
    store.close();
  }
});

test('a message stored while the summary is written (a turn answered during /compress) refuses the switch: nothing lost, nothing changed', async () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  try {
    const session = store.createSession({ key: 'k' });
    const earlier: ChatMessage[] = [];
    for (let i = 0; i < 12; i += 1) earlier.push({ role: 'user', content: `question ${i} ` + 'x'.repeat(200) }, { role: 'assistant', content: `answer ${i}` });
    for (const message of earlier) store.appendMessage({ sessionId: session.id, role: message.role, content: message.content ?? '' });
    const read = store.history({ sessionId: session.id });
    const summarise = async (): Promise<string> => {
      // Meanwhile a turn of the same chat stores its messages in the (still open) session.
      store.appendMessage({ sessionId: session.id, role: 'user', content: 'a message sent during /compress' });
      return 'the summary';
    };
    await assert.rejects(
      compressSession({
        store,
        session,
        platform: 'test',
        prompts: { build: () => ({ text: 'new prompt', layers: [] }) },
        deps: { threshold: 0.5, tailRatio: 0.2, summaryMaxTokens: 500, contextLength: () => 1000, summarise },
        messages: toChatHistory({ messages: read }),
        overheadTokens: 0,
        countTokens: (m) => Math.ceil((m.content ?? '').length / 4),
        force: true,
        inboxId: null,
        turnMessages: 0,
        lastMessageId: read.at(-1)?.id ?? null,
        signal: new AbortController().signal,
        scrub: (t) => t,
        clock: new FakeClock(),
        logger: pino({ level: 'silent' }),
      }),
      SessionChangedError,
    );
    assert.equal(store.listSessions({ limit: 10 }).length, 1, 'no new session');
    assert.equal(store.activeSession({ key: 'k' })?.id, session.id);
    assert.equal(store.history({ sessionId: session.id }).at(-1)?.content, 'a message sent during /compress', 'the new message stays in the current session');
  } finally {
    store.close();
  }
});
