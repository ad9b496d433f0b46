import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import type { BotMessage } from '../fakes/telegram/types.js';
import { lastToolResult } from '../helpers/approvals.js';
import { until } from '../helpers/gateway-process.js';
import { startHarness } from '../helpers/harness.js';
import { keyboardLabels, messageNow } from '../helpers/telegram-buttons.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const filesystem = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

/** The approval questions the bot sent in the owner's chat. */
function questions(fake: FakeTelegram): BotMessage[] {
  return fake.chatMessages(dm.id).filter((m) => m.shown.startsWith('⚠️ The agent wants to run'));
}

test('telegram: server-filesystem\'s write_file waits for the owner\'s buttons (Deny: no file, the model told; Allow once: written), while its read-only list_directory runs without asking', { timeout: 90_000 }, async () => {
  const notes = mkdtempSync(path.join(os.tmpdir(), 'hermes-mcp-notes-'));
  const note = path.join(notes, 'note.txt');
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  fake.addChat({ id: owner.id, type: 'private', first_name: owner.first_name });
  const h = await startHarness({
    config: {
      timezone: 'UTC',
      skills: { review: false, review_interval: 1000 },
      memory: { review_interval: 1000 },
      // approval is left at its default (manual).
      mcp_servers: { files: { command: process.execPath, args: [filesystem, notes] } },
    },
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [String(owner.id)] } }), allow: [String(owner.id)], mergeWindowMs: 0 },
    ],
  });
  const press = async (q: BotMessage, label: string, final: string): Promise<void> => {
    fake.press({ chatId: dm.id, messageId: q.message_id, from: owner, label });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === final), timeoutMs: 15_000 });
    await h.runner.waitIdle();
  };
  try {
    await until({ what: 'the filesystem server connected', timeoutMs: 30_000, check: () => h.mcp.status()[0]?.state?.kind === 'connected' });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_files_write_file', arguments: { path: note, content: 'remember the milk' } }] }, { text: 'ok, I did not write it' });
    fake.pushMessage({ chat: dm, from: owner, text: 'write a note' });
    await fake.waitFor({ predicate: (f) => questions(f).length >= 1, timeoutMs: 15_000 });
    const q = questions(fake)[0] as BotMessage;
    assert.match(q.shown, /^⚠️ The agent wants to run a dangerous command \(mcp_files_write_file\):\n.*remember the milk/);
    assert.match(q.shown, /a tool of the MCP server "files" that may change things/);
    assert.deepEqual(keyboardLabels(fake, q, dm.id), [['Allow once', 'Allow for this session'], ['Always allow', 'Deny']]);
    assert.equal(h.fake.requests.length, 1, 'the model was asked again before an answer');
    await press(q, 'Deny', 'ok, I did not write it');
    assert.equal(existsSync(note), false, 'the denied write happened');
    assert.match(lastToolResult(h), /^Not run: the owner denied it/);
    assert.match(messageNow(fake, q, dm.id).shown, /\n\n⛔ Denied by Owner$/);

    h.fake.enqueue(
      { toolCalls: [{ name: 'mcp_files_list_directory', arguments: { path: notes } }] },
      { toolCalls: [{ name: 'mcp_files_write_file', arguments: { path: note, content: 'remember the milk' } }] },
      { text: 'written' },
    );
    fake.pushMessage({ chat: dm, from: owner, text: 'then write it after all' });
    await fake.waitFor({ predicate: (f) => questions(f).length >= 2, timeoutMs: 15_000 });
    // The listing ran before the question, unasked.
    assert.match(String(h.fake.requests.at(-1)?.body.messages?.filter((m) => m['role'] === 'tool').at(-1)?.['content']), /^<mcp_output server="files" tool="list_directory">/);
    await press(questions(fake)[1] as BotMessage, 'Allow once', 'written');
    assert.equal(readFileSync(note, 'utf8'), 'remember the milk');
    assert.match(lastToolResult(h), /^<mcp_output server="files" tool="write_file">\nSuccessfully wrote to /);
  } finally {
    await h.stop();
    await fake.close();
    rmSync(notes, { recursive: true, force: true });
  }
});
