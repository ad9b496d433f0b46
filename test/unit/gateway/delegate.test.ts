import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import OpenAI from 'openai';
import { pino } from 'pino';
import { AIAgent } from '../../../src/agent/agent.js';
import { delegateCapability, childToolContext } from '../../../src/gateway/delegate/capability.js';
import { ChildSlots } from '../../../src/gateway/delegate/slots.js';
import { RunningDelegations } from '../../../src/gateway/delegate/running.js';
import { childRegistry } from '../../../src/gateway/delegate/toolsets.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { defineTool, type ToolContext } from '../../../src/tools/tool.js';
import { ToolError } from '../../../src/core/errors.js';
import { z } from 'zod';
import { systemClock } from '../../../src/core/clock.js';
import { FakeOpenAI } from '../../fakes/openai/server.js';
import { childRequests, delegateResponder } from '../../helpers/delegate.js';
import { bareToolContext } from '../tools/support.js';

const allTools = new ToolRegistry({ tools: builtinTools({ memory: true, skills: true, cron: true }) });

/** A store, a fake model and a parent agent with every built-in tool. */
async function world(): Promise<{ fake: FakeOpenAI; store: Store; agent: AIAgent; parentId: string; inboxId: number; close: () => Promise<void> }> {
  const fake = new FakeOpenAI();
  await fake.start();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-delegate-'));
  const store = openStore({ path: path.join(dir, 'state.db'), clock: systemClock });
  const agent = new AIAgent({
    client: new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test' }),
    model: 'fake-model',
    registry: allTools,
    maxIterations: 10,
    maxRetries: 0,
    maxParallel: 4,
    clock: systemClock,
    requestTimeoutMs: 10_000,
  });
  const parentId = store.createSession({ key: 'test:test:chat-1' }).id;
  const event = { platform: 'test', messageId: 'm1', chat: { id: 'chat-1', kind: 'dm' as const }, sender: { id: 'u1', name: 'U', isBot: false }, text: 'go', media: [], mentioned: true, receivedAt: 0 };
  const inboxId = store.recordInbound({ event, sessionKey: 'test:test:chat-1' }).row.id;
  return {
    fake,
    store,
    agent,
    parentId,
    inboxId,
    close: async () => {
      store.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('a grandchild is refused even when a child is given delegate_task by hand; the capability itself refuses at depth 1', async () => {
  const w = await world();
  try {
    w.fake.setResponder(
      delegateResponder({
        parent: () => ({ text: 'unused' }),
        child: (_goal, round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'deeper' } }] } : { text: 'could not delegate' }),
      }),
    );
    const capability = delegateCapability({
      agent: w.agent,
      store: w.store,
      settings: { maxIterations: 5, maxConcurrentChildren: 3 },
      toolContext: { ...bareToolContext(), depth: 0 },
      parentSessionId: () => w.parentId,
      parentKey: 'test:test:chat-1',
      inboxId: w.inboxId,
      scrub: (text) => text,
      logger: pino({ level: 'silent' }),
      depth: 0,
      // The tool list "changed by hand": the child keeps every tool, delegate_task included.
      childRegistryFor: ({ parent }) => new ToolRegistry({ tools: parent.list() }),
    });
    const [outcome] = await capability.run({ tasks: [{ goal: 'top' }], signal: new AbortController().signal });
    assert.equal(outcome?.status, 'done');
    assert.equal(outcome?.summary, 'could not delegate');
    const children = childRequests({ requests: w.fake.requests });
    assert.deepEqual([...children.keys()], ['top'], 'a grandchild conversation reached the model');
    const second = children.get('top')?.[1]?.body.messages ?? [];
    const tool = second.find((m) => m['role'] === 'tool');
    assert.match(String(tool?.['content']), /^Error: delegate_task is not available here\.$/);

    const nested = delegateCapability({
      agent: w.agent,
      store: w.store,
      settings: { maxIterations: 5, maxConcurrentChildren: 3 },
      toolContext: bareToolContext(),
      parentSessionId: () => w.parentId,
      parentKey: 'k',
      inboxId: w.inboxId,
      scrub: (text) => text,
      logger: pino({ level: 'silent' }),
      depth: 1,
    });
    const before = w.fake.requests.length;
    await assert.rejects(nested.run({ tasks: [{ goal: 'x' }], signal: new AbortController().signal }), (error: unknown) => error instanceof ToolError && /not available here/.test(error.message));
    assert.equal(w.fake.requests.length, before);
  } finally {
    await w.close();
  }
});

test("a child's tool context is the parent's at depth 1 without delegate, clarify, messaging, memory, inner tool calls or session", () => {
  const parent = {
    ...bareToolContext(),
    sessionId: 'parent',
    delegate: { run: async () => [] },
    clarify: { ask: async () => ({ answered: false as const, reason: 'no' }) },
    messaging: { list: async () => [], send: async () => '' },
    memory: { write: async () => '' },
    toolCalls: { names: [], call: async () => ({ content: '', isError: false }) },
    approval: { decide: async () => ({ approved: false as const, reason: 'no' }) },
  };
  const child = childToolContext({ parent });
  for (const key of ['delegate', 'clarify', 'messaging', 'memory', 'toolCalls', 'sessionId']) assert.ok(!(key in child), `${key} kept`);
  assert.equal(child.depth, 1);
  assert.equal(child.approval, parent.approval, "a child's dangerous command still asks the owner");
  assert.equal(child.workspace, parent.workspace);
});

test("what a child's tools really see at run time: no delegate, clarify, messaging, memory or inner tool calls (execute_code given by hand is not available)", async () => {
  const w = await world();
  try {
    const seen: string[][] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'records the context it runs with',
      input: z.object({}),
      parallel: 'safe',
      handler: async (_args, ctx: ToolContext) => {
        seen.push(Object.entries(ctx).filter(([, value]) => value !== undefined).map(([key]) => key));
        return `depth ${ctx.depth}`;
      },
    });
    w.fake.setResponder(
      delegateResponder({
        parent: () => ({ text: 'unused' }),
        child: (_goal, round) =>
          round === 0 ? { toolCalls: [{ name: 'probe', arguments: {} }, { name: 'execute_code', arguments: { code: 'print(1)', language: 'python' } }] } : { text: 'probed' },
      }),
    );
    const parentContext = {
      ...bareToolContext(),
      depth: 0,
      clarify: { ask: async () => ({ answered: false as const, reason: 'no' }) },
      messaging: { list: async () => [], send: async () => '' },
      memory: { write: async () => '' },
      codeExecution: { timeoutMs: 5000, maxToolCalls: 5 },
    };
    const capability = delegateCapability({
      agent: w.agent,
      store: w.store,
      settings: { maxIterations: 5, maxConcurrentChildren: 3 },
      toolContext: parentContext,
      parentSessionId: () => w.parentId,
      parentKey: 'test:test:chat-1',
      inboxId: w.inboxId,
      scrub: (text) => text,
      logger: pino({ level: 'silent' }),
      depth: 0,
      // The tool list "changed by hand": the child keeps every tool (execute_code too) and gets the probe.
      childRegistryFor: ({ parent }) => new ToolRegistry({ tools: [...parent.list(), probe] }),
    });
    const [outcome] = await capability.run({ tasks: [{ goal: 'probe it' }], signal: new AbortController().signal });
    assert.equal(outcome?.summary, 'probed');
    assert.equal(seen.length, 1);
    for (const key of ['delegate', 'clarify', 'messaging', 'memory', 'toolCalls']) assert.ok(!(seen[0] ?? []).includes(key), `a child's tool saw ${key}`);
    const second = childRequests({ requests: w.fake.requests }).get('probe it')?.[1]?.body.messages ?? [];
    const results = second.filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.deepEqual(results[0], 'depth 1');
    assert.match(results[1] ?? '', /^Error: execute_code is not available here/);
  } finally {
    await w.close();
  }
});

test('toolsets: a child never gets the blocked tools; toolsets narrow its tools; an unknown or absent toolset is a clear error', () => {
  const names = (toolsets?: string[]): string[] => childRegistry({ parent: allTools, toolsets }).list().map((t) => t.name);
  const all = names();
  for (const blocked of ['delegate_task', 'clarify', 'memory', 'send_message', 'execute_code']) assert.ok(!all.includes(blocked), blocked);
  assert.ok(all.includes('terminal') && all.includes('skill_view') && all.includes('cronjob'));
  assert.deepEqual(names(['file']), ['read_file', 'write_file', 'patch', 'search_files']);
  assert.deepEqual(names(['terminal', 'search']), ['search_files', 'terminal', 'session_search']);
  assert.throws(() => names(['files']), (e: unknown) => e instanceof ToolError && /unknown toolset "files"; known toolsets: file, terminal, search/.test(e.message));
  assert.deepEqual(names(['web']), ['web_extract']);
  assert.throws(() => names(['vision']), (e: unknown) => e instanceof ToolError && /toolset "vision" has no tools in this agent/.test(e.message));
});

test('child slots: at most `size` held; a waiter gets the next free slot; an aborted wait holds nothing', async () => {
  const slots = new ChildSlots({ size: 2 });
  const signal = new AbortController().signal;
  const a = await slots.acquire({ signal });
  const b = await slots.acquire({ signal });
  assert.ok(a && b);
  assert.equal(slots.running, 2);
  const abort = new AbortController();
  const gaveUp = slots.acquire({ signal: abort.signal });
  const third: { release?: (() => void) | undefined } = {};
  const waiting = slots.acquire({ signal }).then((release) => (third.release = release));
  abort.abort();
  assert.equal(await gaveUp, undefined);
  await new Promise((r) => setImmediate(r));
  const got = (): (() => void) | undefined => third.release;
  assert.equal(got(), undefined, 'a waiter got a slot while none was free');
  a();
  a(); // a second release of the same slot changes nothing
  await waiting;
  const release = got();
  assert.ok(release);
  assert.equal(slots.running, 2);
  b();
  release();
  assert.equal(slots.running, 0);
});

test('running delegations: a stop interrupts each session running children then, and one that starts them later as it starts; ended ones are not', () => {
  const running = new RunningDelegations();
  const leaveA = running.enter({ sessionKey: 'a' });
  const leaveB1 = running.enter({ sessionKey: 'b' });
  const leaveB2 = running.enter({ sessionKey: 'b' });
  const leaveC = running.enter({ sessionKey: 'c' });
  leaveA();
  leaveA(); // twice: still one call's end
  leaveB1();
  leaveC();
  const interrupted: string[] = [];
  running.stopping({ interrupt: ({ sessionKey }) => interrupted.push(sessionKey) });
  assert.deepEqual(interrupted, ['b'], 'b still runs its second call');
  leaveB2();
  running.enter({ sessionKey: 'd' });
  assert.deepEqual(interrupted, ['b', 'd']);
});
