import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../src/tools/tool.js';
import { INTERRUPTED_RESULT } from '../../../src/tools/scheduler.js';
import { historyProblems, runTurn, sleep, startRig, type Rig } from './support.js';

interface Span {
  name: string;
  start: number;
  end: number;
}

/** Probe tools that record when they ran. */
function probes(spans: Span[]): ToolDefinition[] {
  const run = async (name: string): Promise<string> => {
    const start = performance.now();
    await sleep(120);
    spans.push({ name, start, end: performance.now() });
    return `${name} done`;
  };
  return [
    defineTool({ name: 'probe_safe', description: 'probe', input: z.object({ tag: z.string() }), parallel: 'safe', handler: (a) => run(`safe:${a.tag}`) }),
    defineTool({
      name: 'probe_read',
      description: 'probe',
      input: z.object({ path: z.string() }),
      parallel: { paths: (a) => [{ path: a.path, write: false }] },
      handler: (a) => run(`read:${a.path}`),
    }),
    defineTool({
      name: 'probe_write',
      description: 'probe',
      input: z.object({ path: z.string() }),
      parallel: { paths: (a) => [{ path: a.path, write: true }] },
      handler: (a) => run(`write:${a.path}`),
    }),
  ];
}

const overlap = (a: Span | undefined, b: Span | undefined): boolean => {
  assert.ok(a && b, 'probe did not run');
  return a.start < b.end && b.start < a.end;
};

describe('AIAgent tools', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  test('safe tools run in parallel; read+write of one file run apart, of different files together', async () => {
    const spans: Span[] = [];
    rig = await startRig({ tools: probes(spans) });
    rig.fake.enqueue(
      { toolCalls: [{ name: 'probe_safe', arguments: { tag: 'a' } }, { name: 'probe_safe', arguments: { tag: 'b' } }] },
      {
        toolCalls: [
          { name: 'probe_write', arguments: { path: 'notes.txt' } },
          { name: 'probe_read', arguments: { path: './notes.txt' } },
        ],
      },
      {
        toolCalls: [
          { name: 'probe_write', arguments: { path: 'one.txt' } },
          { name: 'probe_read', arguments: { path: 'two.txt' } },
        ],
      },
      { text: 'all done' },
    );
    const { result, messages } = await runTurn({ rig, userText: 'go' });
    assert.equal(result.outcome, 'final');
    assert.deepEqual(historyProblems({ messages }), []);
    const get = (name: string): Span | undefined => spans.find((s) => s.name === name);
    assert.ok(overlap(get('safe:a'), get('safe:b')), 'the two safe tools did not overlap');
    assert.ok(!overlap(get('write:notes.txt'), get('read:./notes.txt')), 'read and write of the same file overlapped');
    assert.ok(overlap(get('write:one.txt'), get('read:two.txt')), 'different files were not run together');
  });

  test('budget exhaustion: a model that always calls a tool stops after exactly max calls', async () => {
    const spans: Span[] = [];
    rig = await startRig({ tools: probes(spans), maxIterations: 3 });
    rig.fake.setResponder(() => ({ toolCalls: [{ name: 'probe_safe', arguments: { tag: 'again' } }] }));
    const { result, messages } = await runTurn({ rig, userText: 'loop forever' });
    assert.equal(result.outcome, 'budget_exhausted');
    assert.equal(result.modelCalls, 3);
    assert.equal(rig.fake.requests.length, 3);
    assert.equal(
      result.note,
      'I stopped after 3 model calls (the iteration budget). What I did so far is saved; send another message to continue.',
    );
    assert.equal(spans.length, 3, 'the last round’s tools still ran and were saved');
    assert.deepEqual(historyProblems({ messages }), []);
  });

  test('a round whose only tool call is a freeRound tool (execute_code) does not use up the budget', async () => {
    const executeCode = defineTool({
      name: 'execute_code',
      description: 'runs code',
      input: z.object({ code: z.string() }),
      parallel: 'safe',
      freeRound: true,
      handler: async () => 'ran',
    });
    const other = defineTool({ name: 'other', description: 'x', input: z.object({}), parallel: 'safe', handler: async () => 'ok' });
    rig = await startRig({ tools: [executeCode, other], maxIterations: 2 });
    const code = { name: 'execute_code', arguments: { code: '1+1' } };
    rig.fake.enqueue({ toolCalls: [code] }, { toolCalls: [code] }, { toolCalls: [code] }, { text: 'result: 2' });
    const refunded = await runTurn({ rig, userText: 'compute' });
    assert.equal(refunded.result.outcome, 'final');
    assert.equal(refunded.result.modelCalls, 4);

    // With another tool in the same round there is no refund: 2 calls, then the budget is gone.
    rig.fake.enqueue(
      { toolCalls: [code, { name: 'other', arguments: {} }] },
      { toolCalls: [code, { name: 'other', arguments: {} }] },
      { text: 'never reached' },
    );
    const charged = await runTurn({ rig, userText: 'compute more' });
    assert.equal(charged.result.outcome, 'budget_exhausted');
    assert.equal(charged.result.modelCalls, 2);
  });

  test('a model that only ever calls execute_code stops after 2 × max calls', async () => {
    const executeCode = defineTool({
      name: 'execute_code',
      description: 'runs code',
      input: z.object({ code: z.string() }),
      parallel: 'safe',
      freeRound: true,
      handler: async () => 'ran',
    });
    rig = await startRig({ tools: [executeCode], maxIterations: 3 });
    const { fake } = rig;
    // Without a cap this would loop for ever; the fake gives up after 50 calls so the test fails instead.
    const call = { name: 'execute_code', arguments: { code: 'again()' } };
    fake.setResponder(() => (fake.requests.length > 50 ? { text: 'no cap' } : { toolCalls: [call] }));
    const { result, messages } = await runTurn({ rig, userText: 'loop' });
    assert.equal(result.outcome, 'budget_exhausted');
    assert.match(result.note ?? '', /stopped after 6 model calls/);
    assert.equal(result.modelCalls, 6);
    assert.equal(rig.fake.requests.length, 6);
    assert.deepEqual(historyProblems({ messages }), []);
  });

  test('interrupt during a slow tool: it sees the abort, unstarted calls get synthetic results, history stays valid', async () => {
    let started = false;
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'slow',
      input: z.object({}),
      parallel: 'never',
      handler: async (_args, ctx) => {
        started = true;
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        sawAbort = true;
        return 'stopped early';
      },
    });
    const quick = defineTool({ name: 'quick', description: 'q', input: z.object({}), parallel: 'safe', handler: async () => 'ran' });
    rig = await startRig({ tools: [slow, quick] });
    rig.fake.enqueue({
      text: 'Working on it.',
      toolCalls: [
        { id: 'c1', name: 'slow', arguments: {} },
        { id: 'c2', name: 'quick', arguments: {} },
        { id: 'c3', name: 'quick', arguments: {} },
      ],
    });
    const controller = new AbortController();
    const turn = runTurn({ rig, userText: 'go', signal: controller.signal });
    while (!started) await sleep(5);
    controller.abort();
    const { result, messages } = await turn;
    assert.equal(result.outcome, 'interrupted');
    assert.equal(result.text, 'Working on it.');
    assert.ok(sawAbort, 'the running tool did not see the abort');
    assert.equal(rig.fake.requests.length, 1, 'no model call after the interrupt');
    assert.deepEqual(historyProblems({ messages }), []);
    const results = messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m.content]] : []));
    assert.deepEqual(results, [
      ['c1', 'stopped early'],
      ['c2', INTERRUPTED_RESULT],
      ['c3', INTERRUPTED_RESULT],
    ]);
  });

  test('a history left with unanswered tool calls is repaired before the new user message', async () => {
    rig = await startRig({});
    rig.fake.enqueue({ text: 'ok' });
    const history = [
      { role: 'user' as const, content: 'earlier' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [{ id: 'old', type: 'function' as const, function: { name: 'terminal', arguments: '{}' } }],
      },
    ];
    const { result, messages } = await runTurn({ rig, userText: 'again', history });
    assert.equal(result.outcome, 'final');
    assert.deepEqual(historyProblems({ messages: [...history, ...messages] }), []);
    assert.equal(messages[0]?.role, 'tool');
    assert.equal(messages[1]?.role, 'user');
  });
});
