import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { summaryMessage } from '../../src/agent/compress/summary-message.js';
import { shortSessionId } from '../../src/store/session-id.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { SessionRow } from '../../src/store/types.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeOpenAI, type CapturedRequest } from '../fakes/openai/server.js';
import { cli } from '../helpers/cli.js';
import { writeChatProfile } from '../helpers/pty-chat.js';

/** The chat's sessions in the profile's store, newest first. */
function chatSessions(home: string): SessionRow[] {
  const store = openStore({ path: path.join(home, 'profiles', 'me', 'state.db'), clock: systemClock });
  try {
    return store.listSessions({ limit: 50, key: 'me:terminal:local' });
  } finally {
    store.close();
  }
}

/** Every message text a request carried. */
function texts(request: CapturedRequest | undefined): string {
  return (request?.body.messages ?? []).map((m) => (typeof m['content'] === 'string' ? m['content'] : '')).join('\n');
}

/** A temp home with profile `me` on a fake model, cleaned up after `use`. */
async function withChat(use: (p: { home: string; fake: FakeOpenAI; env: Record<string, string> }) => Promise<void>): Promise<void> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-sessions-'));
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    writeChatProfile({ home, baseURL: fake.baseURL });
    await use({ home, fake, env: { HERMES_HOME: home, HOME: home } });
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

test('hermes chat --new starts a fresh conversation; --resume brings back the last ended one (or one by id); the start line says which', { timeout: 30_000 }, async () => {
  await withChat(async ({ home, fake, env }) => {
    const chat = (argv: string[], stdin: string): ReturnType<typeof cli> => cli({ argv: ['-p', 'me', 'chat', ...argv], env, stdin });
    fake.enqueue({ text: 'Apples noted.' }, { text: 'Pears noted.' }, { text: 'You said apples.' });
    const first = await chat([], 'remember apples\n');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /A new conversation starts with your first message\./);
    const [apples] = chatSessions(home);
    assert.ok(apples !== undefined);

    const fresh = await chat(['--new'], 'about pears\n');
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stdout, /Started a new conversation \([0-9a-f]{8}\)/);
    assert.ok(!texts(fake.requests[1]).includes('remember apples'), 'the fresh conversation carried the old history');
    const pears = chatSessions(home)[0];
    assert.ok(pears !== undefined && pears.id !== apples.id && pears.endedAt === null);

    const resumed = await chat(['--resume'], 'what fruit?\n');
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.ok(resumed.stdout.includes(`Resumed conversation ${shortSessionId({ id: apples.id })}`), resumed.stdout);
    assert.ok(texts(fake.requests[2]).includes('remember apples') && !texts(fake.requests[2]).includes('about pears'), texts(fake.requests[2]));

    const byId = await chat(['--resume', shortSessionId({ id: pears.id })], '');
    assert.equal(byId.code, 0, byId.stderr);
    assert.ok(byId.stdout.includes(`Resumed conversation ${shortSessionId({ id: pears.id })}`), byId.stdout);
    const current = chatSessions(home).find((s) => s.endedAt === null);
    assert.equal(current?.id, pears.id, 'the stored conversation itself is open again');
    assert.equal(current?.messageCount, pears.messageCount);

    const unknown = await chat(['--resume', 'ffff0000'], '');
    assert.equal(unknown.code, 66);
    assert.match(unknown.stderr, /No conversation "ffff0000" in this chat/);
    assert.equal(unknown.stderr.match(/sessions list/g)?.length, 1, `the way to list them is said once: ${unknown.stderr}`);
    const both = await chat(['--new', '--resume'], '');
    assert.notEqual(both.code, 0);
    assert.equal(fake.requests.length, 3);
  });
});

test('hermes chat into a pipe leaves Markdown plain; a MEDIA file is shown as its path and size', { timeout: 30_000 }, async () => {
  await withChat(async ({ home, fake, env }) => {
    const workspace = path.join(home, 'profiles', 'me', 'workspace');
    mkdirSync(workspace, { recursive: true });
    const file = path.join(workspace, 'report.txt');
    writeFileSync(file, 'x'.repeat(2048));
    fake.enqueue({ text: `This is **bold**.\nMEDIA:${file}` });
    const res = await cli({ argv: ['-p', 'me', 'chat'], env, stdin: 'show me\n' });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /This is \*\*bold\*\*\./);
    assert.ok(res.stdout.includes(`📎 ${file} (2.0 KB)`), res.stdout);
    assert.ok(!res.stdout.includes('\u001b['), 'escape codes in piped output');
  });
});

/** A conversation compressed once in the chat's store: its first session ended by the compression, its child open. */
function compressedChain(home: string): { ancestor: SessionRow; newest: SessionRow } {
  const store = openStore({ path: path.join(home, 'profiles', 'me', 'state.db'), clock: systemClock });
  try {
    const key = 'me:terminal:local';
    const ancestor = store.createSession({ key });
    store.appendMessage({ sessionId: ancestor.id, role: 'user', content: 'plan the garden' });
    store.appendMessage({ sessionId: ancestor.id, role: 'assistant', content: 'Tomatoes by the wall.' });
    const newest = store.continueSession({
      fromSessionId: ancestor.id,
      messages: [
        { role: 'user', content: 'plan the garden' },
        summaryMessage({ text: 'The user plans a garden; tomatoes by the wall.' }),
        { role: 'assistant', content: 'Tomatoes by the wall.' },
      ],
      prompt: { text: 'system', layers: [] },
    });
    return { ancestor: store.getSession({ sessionId: ancestor.id }) ?? ancestor, newest };
  } finally {
    store.close();
  }
}

test('a compressed conversation is one conversation: hermes sessions list shows it once; chat --resume with its old id continues the newest session', { timeout: 30_000 }, async () => {
  await withChat(async ({ home, fake, env }) => {
    const { ancestor, newest } = compressedChain(home);
    const list = await cli({ argv: ['-p', 'me', 'sessions', 'list'], env });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.stdout.includes(shortSessionId({ id: newest.id })), list.stdout);
    assert.ok(!list.stdout.includes(shortSessionId({ id: ancestor.id })), `the compressed ancestor is listed apart: ${list.stdout}`);

    // The chain's newest session is the open one: a bare --resume finds no earlier conversation (not its ancestor).
    const bare = await cli({ argv: ['-p', 'me', 'chat', '--resume'], env, stdin: '' });
    assert.match(bare.stderr, /No earlier conversation of this chat to resume/, bare.stdout);
    assert.equal(chatSessions(home).find((s) => s.endedAt === null)?.id, newest.id);

    // Make it an ended conversation: a fresh one is current.
    fake.enqueue({ text: 'Sure.' }, { text: 'By the wall.' });
    assert.equal((await cli({ argv: ['-p', 'me', 'chat', '--new'], env, stdin: 'something else\n' })).code, 0);
    const resumed = await cli({ argv: ['-p', 'me', 'chat', '--resume', shortSessionId({ id: ancestor.id })], env, stdin: 'where do tomatoes go?\n' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.ok(resumed.stdout.includes(`Resumed conversation ${shortSessionId({ id: newest.id })}`), resumed.stdout);
    assert.ok(resumed.stdout.includes(`${shortSessionId({ id: ancestor.id })} was compressed`), resumed.stdout);
    assert.equal(chatSessions(home).find((s) => s.endedAt === null)?.id, newest.id, 'the newest session of the chain is open, not the ancestor');
    assert.ok(texts(fake.requests.at(-1)).includes('The user plans a garden'), 'the request carries the summary');

  });
});
