import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { FakeOpenAI, type CapturedRequest } from '../fakes/openai/server.js';
import { until } from '../helpers/gateway-process.js';
import { startPtyChat, writeChatProfile, type PtyChat } from '../helpers/pty-chat.js';

// One `hermes chat` in a pseudo-terminal, driven through the tests below in order (a process start costs seconds here).
let home = '';
let fake: FakeOpenAI;
let chat: PtyChat;

/** The text of a request's last user message. */
function lastUser(request: CapturedRequest | undefined): string {
  const users = (request?.body.messages ?? []).filter((m) => m['role'] === 'user');
  const content = users[users.length - 1]?.['content'];
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** The last line written with `text` in it: from the erase of the live region before it to its line break, escape codes removed. */
function committedLine(params: { output: string; text: string }): string {
  const plain = params.output;
  const at = plain.lastIndexOf(params.text);
  if (at < 0) return '';
  const start = plain.lastIndexOf('\u001b[0J', at);
  const end = plain.indexOf('\n', at);
  return stripVTControlCharacters(plain.slice(start < 0 ? 0 : start, end < 0 ? plain.length : end));
}

/** Waits until the fake has received `count` requests. */
async function requests(count: number): Promise<void> {
  await until({ what: `${count} model requests`, timeoutMs: 10_000, check: () => fake.requests.length >= count, output: () => JSON.stringify(chat.output().slice(-2000)) });
}

before(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-pty-'));
  fake = new FakeOpenAI();
  await fake.start();
  writeChatProfile({ home, baseURL: fake.baseURL });
  chat = startPtyChat({ home });
  await chat.waitFor({ pattern: '› ', timeoutMs: 60_000 });
});

after(async () => {
  chat.kill();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

test('the start line says a new conversation begins; bracketed paste is switched on', () => {
  assert.match(chat.output(), /A new conversation starts with your first message\./);
  assert.ok(chat.output().includes('\u001b[?2004h'));
});

test('Ctrl-C mid-stream stops the answer (the request is cut) and the prompt returns', { timeout: 30_000 }, async () => {
  fake.enqueue({ chunks: ['Counting one, ', 'two, ', 'three.'], hangAfterChunks: 2 });
  const mark = chat.output().length;
  chat.type('count please\r');
  const streamed = await chat.waitFor({ pattern: 'two,', from: mark });
  chat.type('\u0003');
  await until({ what: 'the model request cut', timeoutMs: 10_000, check: () => fake.requests[0]?.cut === true });
  const stopped = await chat.waitFor({ pattern: '(stopped)', from: streamed });
  // The answer so far stays on screen, the input line is drawn again below it.
  await chat.waitFor({ pattern: '› ', from: stopped });
  assert.match(stripVTControlCharacters(chat.output().slice(mark)), /Counting one, two,/);
  // One sign that it stopped: the answer's "(stopped)", not also the /stop's "Stopped." (given time to arrive).
  await new Promise((resolve) => setTimeout(resolve, 750));
  assert.ok(!stripVTControlCharacters(chat.output().slice(mark)).includes('Stopped.'), stripVTControlCharacters(chat.output().slice(mark)));
  assert.equal(fake.requests.length, 1);
  assert.match(lastUser(fake.requests[0]), /count please/);
});

test('text typed while an answer streams stays in the input line and is sent on Enter as the next message', { timeout: 30_000 }, async () => {
  fake.enqueue({ chunks: ['The answer ', 'is forty ', 'two.'], chunkDelayMs: 250 }, { text: 'Noted.' });
  const before = fake.requests.length;
  const mark = chat.output().length;
  chat.type('a question\r');
  await chat.waitFor({ pattern: 'The answer', from: mark });
  chat.type('later words');
  const typed = await chat.waitFor({ pattern: '› later words', from: mark });
  await until({ what: 'the answer complete', timeoutMs: 10_000, check: () => fake.requests[before]?.ended !== undefined });
  const answered = await chat.waitFor({ pattern: /The answer is forty two\./, from: typed });
  assert.equal(fake.requests.length, before + 1, 'the typed text was not sent before Enter');
  // The answer's line as finally written (after the live region is erased, up to its line break) holds none of the typed text.
  const line = committedLine({ output: chat.output(), text: 'The answer is forty two.' });
  assert.ok(line.includes('The answer is forty two.') && !line.includes('later') && !line.includes('words'), JSON.stringify(line));
  chat.type('\r');
  await requests(before + 2);
  assert.match(lastUser(fake.requests[before + 1]), /later words/);
  assert.doesNotMatch(lastUser(fake.requests[before]), /later/);
  await chat.waitFor({ pattern: 'Noted.', from: answered });
});

test('a bracketed paste of three lines is one message, sent on Enter', { timeout: 30_000 }, async () => {
  fake.enqueue({ text: 'Got the three lines.' });
  const before = fake.requests.length;
  const mark = chat.output().length;
  chat.type('\u001b[200~first line\rsecond line\rthird line\u001b[201~');
  await chat.waitFor({ pattern: 'third line', from: mark });
  assert.equal(fake.requests.length, before, 'Enter inside the paste sent something');
  chat.type('\r');
  await requests(before + 1);
  await chat.waitFor({ pattern: 'Got the three lines.', from: mark });
  assert.equal(fake.requests.length, before + 1);
  assert.match(lastUser(fake.requests[before]), /first line\nsecond line\nthird line/);
});

test('Markdown is rendered on the terminal: bold without its asterisks', { timeout: 30_000 }, async () => {
  fake.enqueue({ text: 'This is **strong** text.' });
  const mark = chat.output().length;
  chat.type('markdown\r');
  const end = await chat.waitFor({ pattern: /This is .{0,20}strong.{0,20} text\./, from: mark });
  const shown = chat.output().slice(mark, end);
  const rendered = shown.slice(shown.lastIndexOf('This is'));
  assert.ok(!rendered.includes('**'), JSON.stringify(rendered));
  assert.ok(rendered.includes('\u001b[1mstrong'), JSON.stringify(rendered));
});

test('a code block taller than the terminal streams without its redraws running off the screen', { timeout: 30_000 }, async () => {
  const code = Array.from({ length: 50 }, (_, i) => `row ${i}\n`);
  const chunks = ['Here:\n\n```\n', ...Array.from({ length: 10 }, (_, i) => code.slice(i * 5, i * 5 + 5).join('')), '```\n\nDone here.'];
  fake.enqueue({ chunks, chunkDelayMs: 120 });
  const mark = chat.output().length;
  chat.type('code please\r');
  await chat.waitFor({ pattern: 'Done here.', from: mark });
  const shown = chat.output().slice(mark);
  // The live region is erased by moving up to its top: on a 30-row terminal a move of 30 or more leaves copies behind.
  const ups = [...shown.matchAll(/\u001b\[(\d+)A/g)].map((m) => Number(m[1]));
  assert.ok(ups.every((n) => n < 30), `moved up ${Math.max(...ups)} rows on a 30-row terminal`);
  const plain = stripVTControlCharacters(shown);
  for (let i = 0; i < 50; i++) assert.ok(plain.includes(`row ${i}`), `row ${i}`);
});

test('Ctrl-L clears the screen and sends nothing to the model', { timeout: 30_000 }, async () => {
  const before = fake.requests.length;
  const mark = chat.output().length;
  chat.type('\u000c');
  await chat.waitFor({ pattern: '\u001b[2J', from: mark });
  chat.type('/status\r');
  await chat.waitFor({ pattern: /Session: [0-9a-f]{8}/, from: mark });
  assert.equal(fake.requests.length, before);
});

test('Ctrl-C on an idle, empty line asks once; the second leaves with status 0 and bracketed paste off', { timeout: 30_000 }, async () => {
  const mark = chat.output().length;
  chat.type('half-typed');
  await chat.waitFor({ pattern: '› half-typed', from: mark });
  // Ctrl-C on a line with text empties it, leaving nothing.
  chat.type('\u0003');
  await until({ what: 'the line emptied', timeoutMs: 5000, check: () => chat.output().slice(mark).endsWith('› \r\u001b[3G') });
  chat.type('\u0003');
  await chat.waitFor({ pattern: 'Ctrl-C again', from: mark });
  chat.type('\u0003');
  assert.equal(await chat.exited, 0);
  assert.ok(chat.output().slice(mark).includes('\u001b[?2004l'));
});

test('started again: the start line names the conversation that continues; Ctrl-D on an empty line leaves', { timeout: 60_000 }, async () => {
  const again = startPtyChat({ home });
  try {
    await again.waitFor({ pattern: '› ', timeoutMs: 60_000 });
    assert.match(stripVTControlCharacters(again.output()), /Continuing conversation [0-9a-f]{8}( “[^”]*”)? \(\d+ messages\) — --new for a fresh one/);
    again.type('\u0004');
    assert.equal(await again.exited, 0);
  } finally {
    again.kill();
  }
});
