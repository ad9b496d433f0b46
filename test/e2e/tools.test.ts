import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src/tools/tool.js';
import { startHarness } from '../helpers/harness.js';

interface Span {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

function probes(spans: Span[]): ToolDefinition[] {
  const run = async (name: string): Promise<string> => {
    const start = performance.now();
    await new Promise((r) => setTimeout(r, 150));
    spans.push({ name, start, end: performance.now() });
    return `${name} done`;
  };
  return [
    defineTool({ name: 'probe_safe', description: 'test probe', input: z.object({ tag: z.string() }), parallel: 'safe', handler: async (a) => run(`safe:${a.tag}`) }),
    defineTool({
      name: 'probe_read',
      description: 'test probe',
      input: z.object({ path: z.string() }),
      parallel: { paths: (a) => [{ path: a.path, write: false }] },
      handler: async (a) => run(`read:${a.path}`),
    }),
    defineTool({
      name: 'probe_write',
      description: 'test probe',
      input: z.object({ path: z.string() }),
      parallel: { paths: (a) => [{ path: a.path, write: true }] },
      handler: async (a) => run(`write:${a.path}`),
    }),
  ];
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

test('a two-tool round runs in parallel; a read and a write of the same file run one after the other', async () => {
  const spans: Span[] = [];
  const h = await startHarness({ extraTools: probes(spans) });
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'probe_safe', arguments: { tag: 'a' } }, { name: 'probe_safe', arguments: { tag: 'b' } }] },
      { toolCalls: [{ name: 'probe_write', arguments: { path: 'notes.txt' } }, { name: 'probe_read', arguments: { path: 'notes.txt' } }] },
      { text: 'all done' },
    );
    await h.adapter.inject({ text: 'go' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'all done');
    const get = (name: string): Span => {
      const span = spans.find((s) => s.name === name);
      assert.ok(span, `${name} did not run`);
      return span;
    };
    assert.ok(overlaps(get('safe:a'), get('safe:b')), 'the two safe tools did not overlap');
    const write = get('write:notes.txt');
    const read = get('read:notes.txt');
    assert.ok(!overlaps(write, read), 'read and write of one file overlapped');
    assert.ok(write.end <= read.start, 'the write (called first) must finish before the read starts');
    // The model got every tool result back, in call order.
    const third = h.fake.requests[2]?.body.messages ?? [];
    const toolMessages = third.filter((m) => m['role'] === 'tool').map((m) => m['content']);
    assert.deepEqual(toolMessages, ['safe:a done', 'safe:b done', 'write:notes.txt done', 'read:notes.txt done']);
  } finally {
    await h.stop();
  }
});

test('budget exhaustion ends the turn with a message and keeps the work', async () => {
  const h = await startHarness({ config: { agent: { max_iterations: 3 } } });
  try {
    h.fake.setResponder(() => ({ text: 'working…', toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }));
    await h.adapter.inject({ text: 'loop forever' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 3);
    const shown = h.adapter.shown().map((m) => m.text).join('\n');
    assert.match(shown, /3 model calls/);
    assert.match(shown, /iteration budget/i);
    const store = h.readStore();
    try {
      const [session] = store.listSessions({ limit: 1 });
      assert.ok(session);
      const roles = store.history({ sessionId: session.id }).map((m) => m.role);
      assert.equal(roles.filter((r) => r === 'tool').length, 3);
      assert.equal(store.pendingInbound().length, 0);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('a tool path outside the workspace is refused to the model, and the turn goes on', async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: '/etc/passwd' } }, { name: 'write_file', arguments: { path: '../escape.txt', content: 'x' } }] },
      { text: 'I may not touch those files.' },
    );
    await h.adapter.inject({ text: 'read /etc/passwd' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'I may not touch those files.');
    const results = (h.fake.requests[1]?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.equal(results.length, 2);
    for (const r of results) assert.match(r, /outside the workspace/);
    assert.ok(!results[0]?.includes('root:'), 'the file was read');
  } finally {
    await h.stop();
  }
});

test('a tool that reads a secret hands the model *** instead', async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo key=sk-test-harness' } }] }, { text: 'done' });
    await h.adapter.inject({ text: 'print the key' });
    await h.runner.waitIdle();
    const result = (h.fake.requests[1]?.body.messages ?? []).find((m) => m['role'] === 'tool');
    assert.match(String(result?.['content']), /key=\*\*\*/);
    assert.ok(!String(result?.['content']).includes('sk-test-harness'));
  } finally {
    await h.stop();
  }
});
