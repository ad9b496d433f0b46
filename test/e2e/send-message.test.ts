import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { owner, ownerDm, ownerWritesOnTelegram, script, send, start, toolResults } from '../helpers/send-message.js';

test('send_message list: the chats this profile talks with and its home channels, this chat marked', async () => {
  const { h, tg, close } = await start();
  try {
    h.fake.enqueue({ text: 'hello' });
    await ownerWritesOnTelegram({ h, tg, text: 'hi' });
    tg.pushMessage({ chat: ownerDm, from: owner, text: '/sethome' });
    await tg.waitFor({ predicate: (f) => f.chatMessages(ownerDm.id).some((m) => /home/i.test(m.shown)) });
    await h.adapter.inject({ text: 'hello there', chatId: 'c0', senderId: 'user-0' });
    await h.runner.waitIdle();
    script({ h, calls: [{ toolCalls: [{ name: 'send_message', arguments: { action: 'list' } }] }] });
    await h.adapter.inject({ text: 'please tell me who you can reach', chatId: 'c1' });
    await h.runner.waitIdle();
    const [list] = toolResults(h);
    assert.ok(list !== undefined, 'the model got the list');
    assert.match(list, /^- home:telegram \(telegram\) — home channel telegram:1001 \(Olga\)$/m);
    assert.match(list, /^- telegram:1001 \(telegram\) — Olga$/m);
    assert.match(list, /^- test:c0 \(test\) — Tester$/m);
    assert.match(list, /^- test:c1 \(test\) — Tester \[this chat\]$/m);
    assert.equal(h.adapter.shown({ chatId: 'c1' }).at(-1)?.text, 'done.');
  } finally {
    await close();
  }
});

test('send_message to a chat the profile knows arrives there once, its MEDIA file too; the same call again is not sent twice; the progress line shows the target only', async () => {
  const { h, tg, close } = await start();
  try {
    h.fake.enqueue({ text: 'hello' });
    await ownerWritesOnTelegram({ h, tg, text: 'hi' });
    const report = path.join(h.profile.workspaceDir, 'report.txt');
    writeFileSync(report, 'quarterly numbers\n');
    const message = `Your report is ready (code 4711).\nMEDIA:${report}`;
    script({ h, calls: [send({ target: 'telegram:1001', message }), send({ target: 'telegram:1001', message })] });
    await h.adapter.inject({ text: 'please send the report to my telegram', chatId: 'c1' });
    await h.runner.waitIdle();
    const shown = tg.chatMessages(ownerDm.id).filter((m) => !m.deleted);
    const fromTool = shown.slice(1);
    assert.deepEqual(fromTool.map((m) => m.kind), ['text', 'document'], JSON.stringify(shown.map((m) => [m.kind, m.shown])));
    assert.equal(fromTool[0]?.shown, 'Your report is ready (code 4711).');
    assert.equal(fromTool[1]?.file?.bytes.toString('utf8'), 'quarterly numbers\n');
    const [first, second] = toolResults(h);
    assert.match(first ?? '', new RegExp(`^Sent to telegram:1001: message ids ${fromTool[0]?.message_id}, ${fromTool[1]?.message_id}\\.$`));
    assert.match(second ?? '', /^Already sent to telegram:1001 earlier in this turn, .*; it was not sent again\.$/);
    assert.equal(h.adapter.shown({ chatId: 'c1' }).at(-1)?.text, 'done.');
    const progress = h.adapter.calls.filter((c) => c.chatId === 'c1').map((c) => c.text);
    assert.ok(progress.some((t) => t.includes('✉ send_message: telegram:1001')), JSON.stringify(progress));
    assert.ok(!progress.some((t) => t.includes('4711')), 'the message body never shows in the progress line');
  } finally {
    await close();
  }
});

test('send_message to a chat the profile does not know is refused with the valid targets; nothing is sent', async () => {
  const { h, tg, close } = await start();
  try {
    h.fake.enqueue({ text: 'hello' });
    await ownerWritesOnTelegram({ h, tg, text: 'hi' });
    const calls = tg.calls.length;
    script({ h, calls: [send({ target: 'telegram:999', message: 'hello stranger' }), send({ target: 'discord', message: 'hi' })] });
    await h.adapter.inject({ text: 'please write to 999', chatId: 'c1' });
    await h.runner.waitIdle();
    const [unknown, noHome] = toolResults(h);
    assert.match(unknown ?? '', /send_message refused: "telegram:999" is not a chat this profile talks with \(valid targets: origin, test:c1, telegram:1001\)\. Nothing was sent\./);
    assert.match(noHome ?? '', /send_message refused: discord has no home channel yet/);
    assert.equal(tg.calls.slice(calls).filter((c) => c.method === 'sendMessage').length, 0, 'nothing was sent on Telegram');
    assert.equal(tg.chatMessages(999).length, 0);
  } finally {
    await close();
  }
});

test('send_message to the turn’s own chat is sent and the model is told its reply goes there anyway', async () => {
  const { h, close } = await start();
  try {
    script({ h, calls: [send({ target: 'origin', message: 'a note for this chat' })] });
    await h.adapter.inject({ text: 'please note it here', chatId: 'c1' });
    await h.runner.waitIdle();
    const [result] = toolResults(h);
    assert.match(result ?? '', /^Sent to test:c1: message ids .+ That is the chat this conversation is in: your reply goes there anyway/);
    // The reply's message (it showed the progress line first) and the note, each once.
    assert.deepEqual(h.adapter.shown({ chatId: 'c1' }).map((m) => m.text).sort(), ['a note for this chat', 'done.']);
  } finally {
    await close();
  }
});

test('a turn the system started (a job’s run) may use send_message: "text me on Telegram" arrives there once', async () => {
  const { h, tg, close } = await start();
  try {
    h.fake.enqueue({ text: 'hello' });
    await ownerWritesOnTelegram({ h, tg, text: 'hi' });
    script({ h, calls: [send({ target: 'telegram', message: 'not set' }), send({ target: 'telegram:1001', message: 'The build is green.' })] });
    const injected = h.runner.inject({
      platform: 'test',
      chat: { id: 'c1', kind: 'dm' },
      text: 'please check the build and text me on Telegram',
      sessionKey: 'test:test:c1:job=j1:run=1.1',
      origin: { kind: 'job', jobId: 'j1', runId: 1 },
      messageId: 'job:j1:1:1',
    });
    assert.equal(injected.kind, 'queued');
    if (injected.kind === 'queued') await injected.finished;
    await h.runner.waitIdle();
    const [noHome, sent] = toolResults(h);
    assert.match(noHome ?? '', /telegram has no home channel yet/, 'a bare platform name means its home channel');
    assert.match(sent ?? '', /^Sent to telegram:1001: message ids \d+\.$/);
    assert.deepEqual(tg.chatMessages(ownerDm.id).filter((m) => !m.deleted).map((m) => m.shown), ['hello', 'The build is green.']);
  } finally {
    await close();
  }
});

