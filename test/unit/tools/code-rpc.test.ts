import assert from 'node:assert/strict';
import { Duplex } from 'node:stream';
import { test } from 'node:test';
import type { ToolCallsCapability } from '../../../src/tools/capabilities.js';
import { serveToolCalls } from '../../../src/tools/code/rpc.js';

/** The script's side of a channel: `send` pushes text to the server, `replies` are the lines it wrote back. */
function channel(): { stream: Duplex; send: (text: string) => void; replies: () => Record<string, unknown>[]; ended: () => boolean } {
  let written = '';
  let ended = false;
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString('utf8');
      done();
    },
    final(done) {
      ended = true;
      done();
    },
  });
  return {
    stream,
    send: (text) => stream.push(text),
    replies: () => written.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>),
    ended: () => ended,
  };
}

/** Tools that record what ran: `echo` answers its text, `fail` answers an error result. */
function recording(ran: string[]): ToolCallsCapability {
  return {
    names: ['echo', 'fail'],
    call: async ({ name, args }) => {
      ran.push(name);
      const text = String((args as { text?: unknown }).text ?? '');
      return name === 'fail' ? { content: `Error: ${text}`, isError: true } : { content: `echo ${text}`, isError: false };
    },
  };
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

test('one reply line per request line, in order, with its id; a line split across chunks is one call; bad lines get an error', async () => {
  const ran: string[] = [];
  const c = channel();
  const counter = serveToolCalls({ stream: c.stream, tools: recording(ran), maxCalls: 10, signal: new AbortController().signal });
  c.send('{"id":1,"tool":"echo","args":{"text":"a"}}\n{"id":2,"tool":"fa');
  c.send('il","args":{"text":"bad"}}\nnot json\n{"id":3}\n');
  await settle();
  assert.deepEqual(c.replies(), [
    { id: 1, ok: true, result: 'echo a' },
    { id: 2, ok: false, error: 'Error: bad' },
    { id: null, ok: false, error: 'a tool call must be one JSON object per line: {"id": 1, "tool": "read_file", "args": {...}}' },
    { id: null, ok: false, error: 'a tool call needs "tool": the tool\'s name' },
  ]);
  assert.deepEqual(ran, ['echo', 'fail']);
  assert.equal(counter.calls, 2);
});

test('at most maxCalls calls run; refused names are not counted; after the run ends nothing more runs', async () => {
  const ran: string[] = [];
  const c = channel();
  const run = new AbortController();
  const counter = serveToolCalls({ stream: c.stream, tools: recording(ran), maxCalls: 2, signal: run.signal });
  c.send('{"id":1,"tool":"terminal_x"}\n{"id":2,"tool":"echo"}\n{"id":3,"tool":"echo"}\n{"id":4,"tool":"echo"}\n');
  await settle();
  const replies = c.replies();
  assert.match(String(replies[0]?.['error']), /^terminal_x is not a tool that execute_code can call\. Callable here: echo, fail\.$/);
  assert.deepEqual(replies.slice(1, 3).map((r) => r['ok']), [true, true]);
  assert.match(String(replies[3]?.['error']), /^this script already made 2 tool calls/);
  assert.equal(counter.calls, 2);
  run.abort();
  c.send('{"id":5,"tool":"echo"}\n');
  await settle();
  assert.equal(ran.length, 2, 'a call after the run ended ran');
  assert.equal(c.replies().length, 4);
});

test('a request line past the size limit is refused and the channel closed; later lines never run', async () => {
  const ran: string[] = [];
  const c = channel();
  serveToolCalls({ stream: c.stream, tools: recording(ran), maxCalls: 10, signal: new AbortController().signal });
  c.send(`{"id":1,"tool":"echo","args":{"text":"${'x'.repeat(8 * 1024 * 1024)}`);
  c.send('"}}\n{"id":2,"tool":"echo"}\n');
  await settle();
  assert.deepEqual(c.replies(), [{ id: null, ok: false, error: 'a tool call over 8388608 characters was refused; the channel is closed' }]);
  assert.ok(c.ended());
  assert.deepEqual(ran, []);
});
