import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateTool } from '../helpers/gate-tool.js';
import { roles } from '../helpers/request-roles.js';
import { startTelegramChat, telegramDm, telegramOwner } from '../helpers/telegram-chat.js';

test('telegram: /queue x during a running answer (policy interrupt) does not stop it, and x is the next turn', { timeout: 30_000 }, async () => {
  const t = await startTelegramChat({ config: { gateway: { busy_policy: 'interrupt' } } });
  try {
    t.h.fake.enqueue({ chunks: ['alpha ', 'beta ', 'gamma'], chunkDelayMs: 300 }, { text: 'queued answer' });
    t.fake.pushMessage({ chat: telegramDm, from: telegramOwner, text: 'first' });
    await t.fake.waitFor({ predicate: (f) => (f.chatMessages(telegramDm.id)[0]?.shown ?? '').startsWith('alpha'), timeoutMs: 10_000 });
    t.fake.pushMessage({ chat: telegramDm, from: telegramOwner, text: '/queue and then this' });
    await t.fake.waitFor({ predicate: (f) => f.chatMessages(telegramDm.id).some((m) => m.shown === 'queued answer'), timeoutMs: 10_000 });
    await t.h.runner.waitIdle();
    assert.deepEqual(
      t.fake.chatMessages(telegramDm.id).map((m) => m.shown),
      ['alpha beta gamma', 'queued answer'],
    );
    assert.equal(t.h.fake.requests[0]?.cut, undefined, 'the running answer was not stopped');
    assert.deepEqual(roles(t.h.fake.requests[1]), ['user:first', 'assistant:alpha beta gamma', 'user:and then this']);
  } finally {
    await t.stop();
  }
});

test('telegram: /verbose off hides the tool progress line of the next answer; /verbose on shows it again', { timeout: 30_000 }, async () => {
  // A tool that holds each call until the test opens it (rearmed per turn): the progress line has time to be shown.
  const gate = gateTool();
  const t = await startTelegramChat({ config: { display: { tool_progress: 'all' } }, extraTools: [gate.tool] });
  /** Every text the bot's messages in the chat have had, from message `from` on (edits included). */
  const texts = (from: number): string[] => t.fake.chatMessages(telegramDm.id).slice(from).flatMap((m) => m.history);
  /** Runs a turn that calls the gate tool, holding it past an edit interval; resolves with the texts its messages had. */
  const toolTurn = async (text: string, expectLine: boolean): Promise<string[]> => {
    const from = t.fake.chatMessages(telegramDm.id).length;
    gate.rearm();
    t.h.fake.enqueue({ toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { text: `done: ${text}` });
    t.fake.pushMessage({ chat: telegramDm, from: telegramOwner, text });
    await t.fake.waitFor({ predicate: () => gate.entered(), timeoutMs: 10_000 });
    if (expectLine) await t.fake.waitFor({ predicate: () => texts(from).some((s) => s.includes('probe_gate')), timeoutMs: 10_000 });
    // Off: more than the edit interval passes with the tool running, and still no line.
    else await new Promise((resolve) => setTimeout(resolve, 700));
    gate.open();
    await t.fake.waitFor({ predicate: (f) => f.chatMessages(telegramDm.id).some((m) => m.shown === `done: ${text}`), timeoutMs: 10_000 });
    await t.h.runner.waitIdle();
    return texts(from);
  };
  try {
    assert.match(await t.say('/verbose off'), /^Tool progress lines for this chat: off/);
    const quiet = await toolTurn('look', false);
    assert.ok(!quiet.some((s) => s.includes('probe_gate')), JSON.stringify(quiet));
    assert.match(await t.say('/verbose'), /^Tool progress lines for this chat: on: a line for every tool call/);
    const shown = await toolTurn('look again', true);
    assert.ok(shown.some((s) => s.includes('probe_gate')), JSON.stringify(shown));
  } finally {
    gate.open();
    await t.stop();
  }
});
