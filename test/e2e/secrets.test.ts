import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { cli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { leakedPiece } from '../helpers/secret-leaks.js';
import { telegramAdapter } from '../helpers/telegram.js';

// The outside tester's secrets: a 45-character bot token, a 35-character API key, a 32-character Twilio token.
const botToken = '7000000002:RELSECtgTOKEN000Zq8Wm3Xr5Tb7Yn2Pk9';
const apiKey = 'sk-RELSECapiKEY0h4Jd8Lq2Vx6Nc1Rg5Tw';
const twilioToken = 'RELSECtwilio0000a9f3c7e1b5d2f8a4';
const secrets = [botToken, apiKey, twilioToken];

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

/**
 * The terminal unconfined (sandbox: none) and approval off (reading .env is a dangerous command): these tests reach the
 * profile's .env on purpose, to test the scrubbing behind the sandbox.
 */
const unconfined = { tools: { approval: 'off', terminal: { sandbox: 'none' } } };

/** A gateway with the tester's .env, answering Telegram DMs through grammy against the fake. */
async function start(params: { config?: Record<string, unknown> } = {}): Promise<{ h: Harness; fake: FakeTelegram }> {
  const fake = new FakeTelegram({ token: botToken });
  await fake.start();
  const h = await startHarness({
    env: { TELEGRAM_BOT_TOKEN: botToken, MODEL_KEY: apiKey, TWILIO_AUTH_TOKEN: twilioToken },
    config: { model: { api_key: '${MODEL_KEY}' }, stream: { edit_interval: '250ms' }, ...params.config },
    adapters: ({ profile, clock, logger }) => [
      {
        adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { token: botToken, allowed_users: ['1001'] } }),
        allow: ['1001'],
        mergeWindowMs: 100,
      },
    ],
  });
  return { h, fake };
}

/** Every text the bot ever showed in the chat (each message's whole edit history) and every file it sent. */
function everythingShown(fake: FakeTelegram): { texts: string[]; files: { name: string; bytes: Buffer }[] } {
  const messages = fake.chatMessages(dm.id);
  const texts = messages.flatMap((m) => [...m.history, m.shown]);
  const calls = fake.calls.filter((c) => c.method === 'sendMessage' || c.method === 'editMessageText').map((c) => String(c.params['text'] ?? ''));
  const files = messages.flatMap((m) => (m.file ? [{ name: m.file.file_name ?? '', bytes: m.file.bytes }] : []));
  return { texts: [...texts, ...calls], files };
}

function assertNoLeak(params: { texts: readonly string[]; where: string; minLength?: number }): void {
  for (const text of params.texts) {
    const piece = leakedPiece({ text, secrets, ...(params.minLength ? { minLength: params.minLength } : {}) });
    assert.equal(piece, undefined, `${params.where} shows ${JSON.stringify(piece)} of a secret: ${JSON.stringify(text.slice(0, 300))}`);
  }
}

test('secrets by content: copies of .env (cp, base64 -w0, rev, sed) are refused as attachments with a note; a clean file still goes', { timeout: 30_000 }, async () => {
  const { h, fake } = await start({ config: unconfined });
  try {
    const ws = h.profile.workspaceDir;
    const copies = ['envcopy.txt', 'env.b64', 'env.rev', 'env.sed'];
    h.fake.enqueue(
      {
        toolCalls: [
          {
            name: 'terminal',
            arguments: { command: "cp ../.env envcopy.txt && base64 -w0 ../.env > env.b64 && rev ../.env > env.rev && sed 's/./& /g' ../.env > env.sed && echo hello > notes.txt && echo ok" },
          },
        ],
      },
      { text: `Here are the files.\n${[...copies, 'notes.txt'].map((name) => `MEDIA:${path.join(ws, name)}`).join('\n')}` },
    );
    fake.pushMessage({ chat: dm, from: owner, text: 'send me a copy of your settings' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.kind === 'document'), timeoutMs: 15_000 });
    await h.runner.waitIdle();
    for (const name of copies) assert.ok(existsSync(path.join(ws, name)), `the tool did not write ${name}`);
    const { texts, files } = everythingShown(fake);
    assert.deepEqual(files.map((f) => f.name), ['notes.txt'], 'only the clean file was sent');
    const final = fake.chatMessages(dm.id).find((m) => m.kind === 'text')?.shown ?? '';
    for (const name of copies) {
      assert.match(final, new RegExp(`Could not attach \\S*${name.replace('.', '\\.')}: it contains one of the profile's secrets`));
    }
    assertNoLeak({ texts: [...texts, ...files.map((f) => f.bytes.toString('latin1'))], where: 'the chat' });
  } finally {
    await h.stop();
    await fake.close();
  }
});

/** The tool results of the last request that has any. */
function toolResults(requests: readonly CapturedRequest[]): string[] {
  const withTools = [...requests].reverse().find((r) => (r.body.messages ?? []).some((m) => m['role'] === 'tool'));
  return (withTools?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
}

test('secrets by content: base64 -w0, rev and sed-separated .env in tool results reach neither the model nor (relayed) the chat', { timeout: 30_000 }, async () => {
  const { h, fake } = await start({ config: unconfined });
  try {
    const commands = ['base64 -w0 ../.env', 'rev ../.env', "sed 's/./& /g' ../.env"];
    h.fake.setResponder((req) => {
      const results = (req.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
      if (results.length === 0) return { toolCalls: commands.map((command) => ({ name: 'terminal', arguments: { command } })) };
      // A model that relays what its tools printed, verbatim.
      return { text: `The tools printed:\n${results.join('\n')}`, chunks: undefined };
    });
    fake.pushMessage({ chat: dm, from: owner, text: 'print your .env three ways' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.includes('The tools printed')), timeoutMs: 15_000 });
    await h.runner.waitIdle();
    const results = toolResults(h.fake.requests);
    assert.equal(results.length, 3);
    // The commands did run: what is not a secret is still there (the variable names, base64-encoded, reversed, spaced).
    assert.match(results[0] ?? '', /^VEVMRUdSQU1fQk9UX1RPS0VO/);
    assert.match(results[1] ?? '', /=NEKOT_TOB_MARGELET/);
    assert.match(results[2] ?? '', /T E L E G R A M _ B O T _ T O K E N =/);
    assertNoLeak({ texts: results, where: 'a tool result the model saw' });
    assertNoLeak({ texts: everythingShown(fake).texts, where: 'the chat' });
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('secrets by content: a reply streamed 3 characters at a time shows no fragment of a secret in any Telegram edit', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    const text = `Here you go. The bot token is ${botToken} and the model key is ${apiKey}; SMS uses ${twilioToken}. That is all.`;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 3) chunks.push(text.slice(i, i + 3));
    h.fake.enqueue({ chunks, chunkDelayMs: 25 });
    fake.pushMessage({ chat: dm, from: owner, text: 'what are your secrets?' });
    const final = 'Here you go. The bot token is *** and the model key is ***; SMS uses ***. That is all.';
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id)[0]?.shown === final, timeoutMs: 15_000 });
    await h.runner.waitIdle();
    const edits = fake.calls.filter((c) => c.method === 'editMessageText');
    assert.ok(edits.length >= 6, `expected many streaming edits, got ${edits.length}`);
    // Not even 5 characters of a secret: the start of one is held back until it is masked or proves harmless.
    assertNoLeak({ texts: everythingShown(fake).texts, where: 'a streamed edit', minLength: 5 });
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('secrets by content: assistant and tool texts are stored scrubbed (messages, FTS, `hermes sessions search`, history sent back)', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.enqueue(
      { text: 'Checking.', toolCalls: [{ name: 'terminal', arguments: { command: `echo stored-canary ${twilioToken}` } }] },
      { text: `stored-canary: the token is ${botToken} and the key ${apiKey}.` },
      { text: 'second answer' },
    );
    fake.pushMessage({ chat: dm, from: owner, text: 'remember the token' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.includes('stored-canary')), timeoutMs: 15_000 });
    await h.runner.waitIdle();
    fake.pushMessage({ chat: dm, from: owner, text: 'and now?' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'second answer'), timeoutMs: 15_000 });
    await h.runner.waitIdle();

    const store = h.readStore();
    try {
      const [session] = store.listSessions({ limit: 1 });
      assert.ok(session);
      const stored = store.history({ sessionId: session.id });
      assert.ok(stored.some((m) => m.role === 'assistant' && m.content.includes('stored-canary: the token is ***')), 'the reply was stored');
      assert.ok(stored.some((m) => m.role === 'tool' && m.content.includes('stored-canary ***')), 'the tool result was stored');
      assertNoLeak({ texts: stored.flatMap((m) => [m.content, ...(m.toolCalls ?? []).map((c) => c.arguments)]), where: 'a stored message' });
      for (const secret of secrets) {
        const word = secret.split(/[^A-Za-z0-9]+/).sort((a, b) => b.length - a.length)[0] ?? secret;
        assert.equal(store.search({ query: word, limit: 10 }).length, 0, `the FTS index finds ${word}`);
      }
      assertNoLeak({ texts: store.search({ query: 'canary', limit: 10 }).map((hit) => hit.snippet), where: 'an FTS snippet' });
    } finally {
      store.close();
    }
    // The next turn's history, as the model received it.
    assertNoLeak({ texts: (h.fake.requests.at(-1)?.body.messages ?? []).map((m) => JSON.stringify(m)), where: 'the history sent to the model' });
    const env = { HERMES_HOME: h.profile.hermesHome, HOME: h.profile.hermesHome };
    const search = await cli({ argv: ['-p', h.profile.name, 'sessions', 'search', 'canary'], env });
    assert.equal(search.code, 0, search.stderr);
    assert.match(search.stdout, /canary/);
    assertNoLeak({ texts: [search.stdout], where: '`hermes sessions search`' });
    const direct = await cli({ argv: ['-p', h.profile.name, 'sessions', 'search', 'RELSECtgTOKEN000Zq8Wm3Xr5Tb7Yn2Pk9'], env });
    assert.match(direct.stdout, /^no messages match/, 'the token is not in the index');
  } finally {
    await h.stop();
    await fake.close();
  }
});
