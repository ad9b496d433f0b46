import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CapturedRequest, ScriptedReply } from '../fakes/openai/server.js';
import { until, say } from '../helpers/converse.js';
import { BLOCKED_FOR_CHILDREN, childRequests, delegateResponder, mostAtOnce, offeredTools, parentRequests } from '../helpers/delegate.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** The tool message a request carries for the parent's delegate_task call. */
function delegateResult(params: { request: CapturedRequest | undefined }): string {
  const tool = (params.request?.body.messages ?? []).find((m) => m['role'] === 'tool');
  return String(tool?.['content'] ?? '');
}

/** A child that reads its notes file, then answers a summary naming it (streamed slowly, so children overlap). */
function readingChild(goal: string, round: number): ScriptedReply {
  if (round === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: `notes-${goal}.md` } }], chunkDelayMs: 120 };
  return { chunks: ['summary ', `of ${goal}: `, 'zebrafacts ', 'found'], chunkDelayMs: 120 };
}

/** A harness whose workspace holds notes-<goal>.md for each goal. */
async function setup(params: { goals: readonly string[]; config?: Record<string, unknown> }): Promise<Harness> {
  const h = await startHarness({ config: { stream: { edit_interval: '250ms' }, display: { tool_progress: 'all' }, ...params.config } });
  for (const goal of params.goals) writeFileSync(path.join(h.profile.workspaceDir, `notes-${goal}.md`), `contents of ${goal}\n`);
  return h;
}

test('delegate_task with 3 tasks: fresh child conversations run at once without the blocked tools; the parent sees only the summaries; progress shows each child', async () => {
  const goals = ['alpha', 'beta', 'gamma'];
  const h = await setup({ goals });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] } : { text: 'all three done' }),
        child: readingChild,
      }),
    );
    const reply = await say(h, 'research the three notes');
    assert.equal(reply, 'all three done');

    const children = childRequests({ requests: h.fake.requests });
    assert.deepEqual([...children.keys()].sort(), goals);
    for (const [goal, requests] of children) {
      assert.equal(requests.length, 2, `${goal}: a tool round and the summary`);
      // A fresh conversation: the child system prompt and the goal, nothing of the parent's.
      const first = requests[0]?.body.messages ?? [];
      assert.equal(first.length, 2);
      assert.equal(first[1]?.['content'], `Task: ${goal}`);
      for (const request of requests) {
        const offered = offeredTools({ request });
        assert.ok(offered.includes('read_file'));
        for (const blocked of BLOCKED_FOR_CHILDREN) assert.ok(!offered.includes(blocked), `${goal} was offered ${blocked}`);
      }
    }
    // Running concurrently: all three children's conversations overlap.
    assert.equal(mostAtOnce({ requests: h.fake.requests }), 3);
    const firsts = [...children.values()].map((r) => r[0] as CapturedRequest);
    const latestStart = Math.max(...firsts.map((r) => r.time));
    const earliestEnd = Math.min(...[...children.values()].map((r) => r.at(-1)?.ended ?? 0));
    assert.ok(latestStart < earliestEnd, 'the three children did not run at the same time');

    const parents = parentRequests({ requests: h.fake.requests });
    assert.equal(parents.length, 2);
    assert.ok(offeredTools({ request: parents[0] as CapturedRequest }).includes('delegate_task'));
    const next = parents[1]?.body.messages ?? [];
    const result = delegateResult({ request: parents[1] });
    for (const [i, goal] of goals.entries()) {
      assert.match(result, new RegExp(`## Task ${i + 1}/3: done \\(${goal}\\)\\nsummary of ${goal}: zebrafacts found`));
    }
    // Only the summaries: none of the children's tool calls or tool results reach the parent.
    const calls = next.flatMap((m) => (m['tool_calls'] as { function: { name: string } }[] | undefined) ?? []).map((c) => c.function.name);
    assert.deepEqual(calls, ['delegate_task']);
    assert.ok(!JSON.stringify(next).includes('contents of'), 'a child tool result reached the parent');
    assert.ok(!JSON.stringify(next).includes('read_file'), 'a child tool call reached the parent');

    // The user saw a progress line for each child's call.
    const texts = h.adapter.calls.map((c) => c.text).join('\n');
    for (const [i, goal] of goals.entries()) assert.ok(texts.includes(`↳ child ${i + 1}/3: read_file notes-${goal}.md`), `no progress line for child ${i + 1}: ${texts}`);
  } finally {
    await h.stop();
  }
});

test('a 4th child waits for a slot: two delegate_task calls in one round never run more than agent.max_concurrent_children at once', async () => {
  const goals = ['one', 'two', 'three', 'four'];
  const h = await setup({ goals });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) =>
          round === 0
            ? {
                toolCalls: [
                  { name: 'delegate_task', arguments: { tasks: goals.slice(0, 3).map((goal) => ({ goal })) } },
                  { name: 'delegate_task', arguments: { goal: 'four' } },
                ],
              }
            : { text: 'four done' },
        child: readingChild,
      }),
    );
    assert.equal(await say(h, 'four jobs'), 'four done');
    const children = childRequests({ requests: h.fake.requests });
    assert.equal(children.size, 4);
    assert.equal(mostAtOnce({ requests: h.fake.requests }), 3);
    // The last child to start started only after another one had finished.
    const spans = [...children.values()].map((list) => ({ start: list[0]?.time ?? 0, end: list.at(-1)?.ended ?? 0 }));
    const last = spans.reduce((a, b) => (b.start > a.start ? b : a));
    assert.ok(spans.some((s) => s !== last && s.end <= last.start), 'the 4th child did not wait for a slot');
    const results = parentRequests({ requests: h.fake.requests })[1]?.body.messages?.filter((m) => m['role'] === 'tool').map((m) => String(m['content'])) ?? [];
    assert.equal(results.length, 2);
    assert.match(results[1] ?? '', /## Task 1\/1: done \(four\)\nsummary of four/);
  } finally {
    await h.stop();
  }
});

test('/stop while the children stream aborts every child request within a second', async () => {
  const goals = ['slow1', 'slow2', 'slow3'];
  const h = await setup({ goals });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: () => ({ toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] }),
        child: () => ({ chunks: ['working ', 'on it'], hangAfterChunks: 1 }),
      }),
    );
    await h.adapter.inject({ text: 'go slow' });
    await until(() => childRequests({ requests: h.fake.requests }).size === 3, 'three child requests');
    await new Promise((r) => setTimeout(r, 200));
    const stoppedAt = Date.now();
    await h.adapter.inject({ text: '/stop' });
    const children = (): CapturedRequest[] => [...childRequests({ requests: h.fake.requests }).values()].flat();
    await until(() => children().every((r) => r.cut === true), 'every child request aborted');
    for (const request of children()) assert.ok((request.ended ?? Infinity) - stoppedAt < 1000, `a child request ended ${(request.ended ?? 0) - stoppedAt} ms after /stop`);
    await h.runner.waitIdle();
    // Nobody asked the model again after the stop.
    assert.equal(parentRequests({ requests: h.fake.requests }).length, 1);
    assert.equal(children().length, 3);
  } finally {
    await h.stop();
  }
});

test('a new message while the children stream (busy policy interrupt) aborts every child request within a second; the new message is answered', async () => {
  const goals = ['wait1', 'wait2'];
  const h = await setup({ goals });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (_round, request) =>
          JSON.stringify(request.body.messages).includes('never mind')
            ? { text: 'ok, dropped it' }
            : { toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] },
        child: () => ({ chunks: ['working ', 'on it'], hangAfterChunks: 1 }),
      }),
    );
    await h.adapter.inject({ text: 'go slow' });
    await until(() => childRequests({ requests: h.fake.requests }).size === 2, 'two child requests');
    const sentAt = Date.now();
    await h.adapter.inject({ text: 'never mind' });
    const children = (): CapturedRequest[] => [...childRequests({ requests: h.fake.requests }).values()].flat();
    await until(() => children().every((r) => r.cut === true), 'every child request aborted');
    for (const request of children()) assert.ok((request.ended ?? Infinity) - sentAt < 1000, `a child request ended ${(request.ended ?? 0) - sentAt} ms after the new message`);
    await until(() => h.adapter.shown().some((m) => m.text === 'ok, dropped it'), 'the answer to the new message');
    await h.runner.waitIdle();
    assert.equal(children().length, 2, 'a child ran again');
  } finally {
    await h.stop();
  }
});

test('a shutdown that finds children running (past the drain timeout) aborts every child request within a second', async () => {
  const goals = ['long1', 'long2'];
  const h = await setup({ goals, config: { gateway: { drain_timeout: '500ms' } } });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: () => ({ toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] }),
        child: () => ({ chunks: ['still ', 'going'], hangAfterChunks: 1 }),
      }),
    );
    await h.adapter.inject({ text: 'take long' });
    await until(() => childRequests({ requests: h.fake.requests }).size === 2, 'two child requests');
    const stoppingAt = Date.now();
    await h.runner.stop();
    const children = [...childRequests({ requests: h.fake.requests }).values()].flat();
    await until(() => children.every((r) => r.cut === true), 'every child request aborted');
    // The drain waits 500 ms for the turn; then the shutdown interrupts it, and the children with it.
    for (const request of children) assert.ok((request.ended ?? Infinity) - stoppingAt < 500 + 1000, `a child request ended ${(request.ended ?? 0) - stoppingAt} ms after the stop began`);
  } finally {
    await h.stop();
  }
});

test('a stop while the parent streams lets that model call finish; the delegate_task it then asks for starts no child, and the turn is left open', async () => {
  const goals = ['late1', 'late2'];
  const h = await setup({ goals, config: { gateway: { drain_timeout: '5s' } } });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: () => ({ chunks: ['let me ', 'split ', 'this up'], chunkDelayMs: 300, toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] }),
        child: () => ({ text: 'done at once' }),
      }),
    );
    await h.adapter.inject({ text: 'plan it' });
    await until(() => h.fake.requests.length === 1, 'the parent request');
    const stoppingAt = Date.now();
    await h.runner.stop();
    // The drain waited for the streaming answer (~1 s), not for its 5 s: the delegate_task call interrupted the turn.
    assert.ok(Date.now() - stoppingAt < 3000, `the stop took ${Date.now() - stoppingAt} ms`);
    assert.equal(childRequests({ requests: h.fake.requests }).size, 0, 'a child started during the drain');
    assert.equal(parentRequests({ requests: h.fake.requests }).length, 1);
    const store = h.readStore();
    try {
      assert.equal(store.pendingInbound().length, 1, 'the interrupted turn stays journaled for the replay');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('a child whose model call fails gives the parent its error line; the other children still give their summaries', async () => {
  const goals = ['good1', 'broken', 'good2'];
  const h = await setup({ goals, config: { model: { max_retries: 0 } } });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] } : { text: 'two of three' }),
        child: (goal, round) => (goal === 'broken' ? { status: 500, errorMessage: 'the upstream blew up' } : readingChild(goal, round)),
      }),
    );
    assert.equal(await say(h, 'three again'), 'two of three');
    const result = delegateResult({ request: parentRequests({ requests: h.fake.requests })[1] });
    assert.match(result, /## Task 1\/3: done \(good1\)\nsummary of good1/);
    assert.match(result, /## Task 2\/3: failed \(broken\)\nError: .+/);
    assert.match(result, /## Task 3\/3: done \(good2\)\nsummary of good2/);
  } finally {
    await h.stop();
  }
});

test('a child that runs out of agent.delegate_max_iterations stops there; the parent gets its budget line', async () => {
  const h = await setup({ goals: ['loop'], config: { agent: { delegate_max_iterations: 2 } } });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'loop', context: 'keep reading' } }] } : { text: 'it gave up' }),
        child: (_goal, round) => ({ text: round === 0 ? 'reading first' : '', toolCalls: [{ name: 'read_file', arguments: { path: 'notes-loop.md' } }] }),
      }),
    );
    assert.equal(await say(h, 'loop please'), 'it gave up');
    const child = childRequests({ requests: h.fake.requests }).get('loop') ?? [];
    assert.equal(child.length, 2, 'the child made more model calls than its budget');
    assert.equal(child[0]?.body.messages?.[1]?.['content'], 'Task: loop\n\nContext:\nkeep reading');
    const result = delegateResult({ request: parentRequests({ requests: h.fake.requests })[1] });
    assert.match(result, /^## Task 1\/1: budget_exhausted \(loop\)\nError: ran out of its iteration budget after 2 model calls before finishing\nreading first$/);
  } finally {
    await h.stop();
  }
});

test("children's sessions are stored (parent_session_id, ended, never a chat's active session), /status counts their model calls, session_search finds them later", async () => {
  const goals = ['north', 'south'];
  const h = await setup({ goals });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round, request) => {
          const last = request.body.messages?.filter((m) => m['role'] !== 'system').at(-1);
          if (last?.['role'] === 'user' && String(last['content']).includes('what did we find')) return { toolCalls: [{ name: 'session_search', arguments: { query: 'zebrafacts' } }] };
          if (last?.['role'] === 'tool' && JSON.stringify(request.body.messages).includes('"name":"session_search"')) return { text: 'found it again' };
          return round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] } : { text: 'both done' };
        },
        child: readingChild,
      }),
    );
    assert.equal(await say(h, 'explore both directions'), 'both done');
    const store = h.readStore();
    let parentId = '';
    try {
      const sessions = store.listSessions({ limit: 10 });
      const parent = sessions.find((s) => !s.key.includes(':delegate='));
      assert.ok(parent);
      parentId = parent.id;
      assert.equal(store.activeSession({ key: parent.key })?.id, parent.id);
      const children = sessions.filter((s) => s !== parent);
      assert.equal(children.length, 2);
      for (const child of children) {
        assert.equal(child.parentSessionId, parent.id);
        assert.ok(child.key.startsWith(`${parent.key}:delegate=`), child.key);
        assert.notEqual(child.endedAt, null);
        assert.equal(store.activeSession({ key: child.key }), undefined);
        const history = store.history({ sessionId: child.id });
        assert.deepEqual(history.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
        assert.match(history.at(-1)?.content ?? '', /zebrafacts/);
        assert.equal(store.sessionUsage({ sessionId: child.id }).calls, 2);
      }
      // The parent's own calls stay its own; with its children: 2 + 2 × 2.
      assert.equal(store.sessionUsage({ sessionId: parent.id }).calls, 2);
      assert.equal(store.sessionUsage({ sessionId: parent.id, withChildren: true }).calls, 6);
      // The parent's history holds the summaries, not the children's messages.
      assert.ok(!store.history({ sessionId: parent.id }).some((m) => m.content.includes('contents of')));
    } finally {
      store.close();
    }
    assert.match(await say(h, '/status'), /^Usage: 6 model calls, /m);

    await say(h, '/new');
    assert.equal(await say(h, 'what did we find'), 'found it again');
    const found = parentRequests({ requests: h.fake.requests }).at(-1)?.body.messages?.filter((m) => m['role'] !== 'system').at(-1);
    assert.equal(found?.['role'], 'tool');
    assert.match(String(found?.['content']), /zebrafacts/);
    // The children's sessions are among the results, by their titles (the goals).
    assert.match(String(found?.['content']), /Session \d+: "north" · test ·/);
    assert.match(String(found?.['content']), /Session \d+: "south" · test ·/);
    assert.ok(parentId !== '');
  } finally {
    await h.stop();
  }
});

test('a system-started turn (a check) delegates too, but shows no progress lines: its answer arrives whole', async () => {
  const h = await setup({ goals: ['quiet'] });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'quiet' } }] } : { text: 'check result: fine' }),
        child: readingChild,
      }),
    );
    const result = h.runner.inject({ platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, text: 'run the check', sessionKey: 'test:check:disk', origin: { kind: 'check', name: 'disk' }, messageId: 'check-1' });
    assert.equal(result.kind, 'queued');
    if (result.kind !== 'queued') return;
    await result.finished;
    await h.runner.waitIdle();
    assert.equal(childRequests({ requests: h.fake.requests }).get('quiet')?.length, 2);
    assert.deepEqual(h.adapter.calls.filter((c) => c.kind === 'send' || c.kind === 'edit').map((c) => c.text), ['check result: fine']);
  } finally {
    await h.stop();
  }
});
