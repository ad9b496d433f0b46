import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ownerDm, ownerWritesOnTelegram, script, send, start, toolResults } from '../helpers/send-message.js';

test('send_message never moves a secret out: its text is scrubbed, MEDIA lines naming .env or a file outside the workspace are refused, the stored call holds no secret', async () => {
  const secret = 'sk-SENDmsgQ7w2Lz9Kd4Vb8Nx3Rc6Tf1';
  const { h, tg, close } = await start({ env: { EXTRA_KEY: secret } });
  const outside = mkdtempSync(path.join(os.tmpdir(), 'hermes-outside-'));
  try {
    h.fake.enqueue({ text: 'hello' });
    await ownerWritesOnTelegram({ h, tg, text: 'hi' });
    const away = path.join(outside, 'notes.txt');
    writeFileSync(away, 'not in the workspace\n');
    const copy = path.join(h.profile.workspaceDir, 'copy.txt');
    writeFileSync(copy, `EXTRA_KEY=${secret}\n`);
    const message = [`The key is ${secret}.`, `MEDIA:${h.profile.envPath}`, `MEDIA:${away}`, `MEDIA:${copy}`].join('\n');
    script({ h, calls: [send({ target: 'telegram:1001', message })] });
    await h.adapter.inject({ text: 'please send the key to my telegram', chatId: 'c1' });
    await h.runner.waitIdle();
    const fromTool = tg.chatMessages(ownerDm.id).filter((m) => !m.deleted).slice(1);
    assert.deepEqual(fromTool.map((m) => m.kind), ['text'], 'a file was sent');
    const text = fromTool[0]?.shown ?? '';
    assert.ok(!text.includes(secret.slice(3, 20)), `the secret reached Telegram: ${text}`);
    assert.match(text, /^The key is \*\*\*\.$/m);
    assert.match(text, new RegExp(`⚠️ Could not attach ${h.profile.envPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it is one of the gateway's own private files`));
    assert.match(text, /⚠️ Could not attach .*notes\.txt: it is outside the workspace/);
    assert.match(text, /⚠️ Could not attach .*copy\.txt: it contains one of the profile's secrets/);
    assert.match(toolResults(h)[0] ?? '', /^Sent to telegram:1001: message ids \d+\.$/);
    const store = h.readStore();
    try {
      const sessions = store.listSessions({ limit: 10 });
      for (const session of sessions) assert.ok(!JSON.stringify(store.history({ sessionId: session.id })).includes(secret.slice(3, 20)), 'the secret is stored');
    } finally {
      store.close();
    }
  } finally {
    rmSync(outside, { recursive: true, force: true });
    await close();
  }
});

test('send_message of a long message is split as a reply is (Telegram: 4096 characters a message); one past 20,000 characters is refused', async () => {
  const { h, tg, close } = await start();
  try {
    h.fake.enqueue({ text: 'hello' });
    await ownerWritesOnTelegram({ h, tg, text: 'hi' });
    const paragraph = `${'word '.repeat(199)}end.`;
    const long = Array.from({ length: 9 }, (_, i) => `${i + 1}. ${paragraph}`).join('\n\n');
    script({ h, calls: [send({ target: 'telegram:1001', message: long }), send({ target: 'telegram:1001', message: 'x'.repeat(20_001) })] });
    await h.adapter.inject({ text: 'please send the long text', chatId: 'c1' });
    await h.runner.waitIdle();
    const fromTool = tg.chatMessages(ownerDm.id).filter((m) => !m.deleted).slice(1);
    assert.ok(fromTool.length >= 3, `${fromTool.length} messages`);
    for (const m of fromTool) assert.ok(m.shown.length <= 4096, `a part of ${m.shown.length} characters`);
    assert.equal(fromTool.map((m) => m.shown).join('\n\n').replace(/\s+/g, ' '), long.replace(/\s+/g, ' '));
    const [sent, refused] = toolResults(h);
    assert.match(sent ?? '', new RegExp(`^Sent to telegram:1001: message ids ${fromTool.map((m) => m.message_id).join(', ')}\\.$`));
    assert.match(refused ?? '', /send_message refused: the message is 20001 characters, at most 20000 are sent; shorten it\./);
  } finally {
    await close();
  }
});
