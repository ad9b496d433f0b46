import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { say } from '../helpers/converse.js';
import { childRequests, delegateResponder, mostAtOnce, parentRequests } from '../helpers/delegate.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** The harness's model key: one of the profile's secrets (the Redactor scrubs it). */
const SECRET = 'sk-test-harness';

/** The content of the tool messages the parent's second request carries (the delegate_task results). */
function delegateResults(h: Harness): string[] {
  const second = parentRequests({ requests: h.fake.requests })[1];
  return (second?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
}

function start(config: Record<string, unknown> = {}): Promise<Harness> {
  return startHarness({ config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 }, ...config } });
}

test('delegate_task with 10 tasks: all run, never more than 3 at once; the parent gets ten headers with their summaries, in task order', async () => {
  const goals = Array.from({ length: 10 }, (_, i) => `job${i + 1}`);
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const h = await start();
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] } : { text: 'ten done' }),
        child: (goal) => ({ chunks: ['result ', `of ${goal}`], chunkDelayMs: 40 }),
      }),
    );
    assert.equal(await say(h, 'ten things'), 'ten done');
    assert.equal(childRequests({ requests: h.fake.requests }).size, 10);
    assert.equal(mostAtOnce({ requests: h.fake.requests }), 3);
    const [result] = delegateResults(h);
    const headers = [...(result ?? '').matchAll(/^## Task (\d+)\/10: done \((job\d+)\)\nresult of (job\d+)$/gm)].map((m) => [m[1], m[2], m[3]]);
    assert.deepEqual(headers, goals.map((goal, i) => [String(i + 1), goal, goal]));
    // Ten children listening on the turn's signal print no "possible EventTarget memory leak" warning.
    assert.deepEqual(warnings, []);
  } finally {
    process.off('warning', onWarning);
    await h.stop();
  }
});

test('delegate_task with an unknown toolset (or no tasks): a clear error for the model and no child is started', async () => {
  const h = await start();
  try {
    let round = 0;
    h.fake.setResponder(
      delegateResponder({
        parent: () => {
          round += 1;
          if (round === 1) return { toolCalls: [{ name: 'delegate_task', arguments: { tasks: [{ goal: 'fine' }, { goal: 'odd', toolsets: ['browser'] }] } }] };
          if (round === 2) return { toolCalls: [{ name: 'delegate_task', arguments: { tasks: [] } }] };
          return { text: 'could not delegate' };
        },
        child: () => ({ text: 'should never run' }),
      }),
    );
    assert.equal(await say(h, 'delegate oddly'), 'could not delegate');
    assert.equal(childRequests({ requests: h.fake.requests }).size, 0, 'a child was started');
    const results = (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.match(results[0] ?? '', /^Error: task 2: unknown toolset "browser"; known toolsets: file, terminal, search, .* Nothing was started\.$/);
    assert.match(results[1] ?? '', /^Error: delegate_task: tasks is empty; give at least one/);
  } finally {
    await h.stop();
  }
});

test('children whose model misbehaves (unknown tools, broken JSON arguments, a broken stream): the parent gets their summary or one error line, never their tool calls', async () => {
  const h = await start({ model: { max_retries: 0 } });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) =>
          round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { tasks: [{ goal: 'garbage' }, { goal: 'broken' }] } }] } : { text: 'one of two' },
        child: (goal, round) => {
          if (goal === 'broken') return { chunks: ['half a'], breakAfterChunks: 1 };
          if (round === 0) {
            return {
              toolCalls: [
                { name: 'wipe_disk_zz', arguments: { all: true } },
                { name: 'read_file', arguments: '{"path": "notes.md"' },
              ],
            };
          }
          return { text: 'tools misbehaved, gave up cleanly' };
        },
      }),
    );
    assert.equal(await say(h, 'two odd ones'), 'one of two');
    const garbage = childRequests({ requests: h.fake.requests }).get('garbage') ?? [];
    assert.equal(garbage.length, 2);
    // The child itself was told what was wrong with each call.
    const childTools = (garbage[1]?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.equal(childTools.length, 2);
    assert.match(childTools[0] ?? '', /wipe_disk_zz/);
    assert.match(childTools[1] ?? '', /^Error: /);
    const [result] = delegateResults(h);
    assert.match(result ?? '', /^## Task 1\/2: done \(garbage\)\ntools misbehaved, gave up cleanly\n\n## Task 2\/2: failed \(broken\)\nError: [^\n]+\n/);
    assert.ok(!(result ?? '').includes('wipe_disk_zz') && !(result ?? '').includes('notes.md'), "a child's tool call reached the parent");
    const parentNext = JSON.stringify(parentRequests({ requests: h.fake.requests })[1]?.body.messages ?? []);
    assert.ok(!parentNext.includes('wipe_disk_zz'), "a child's tool call reached the parent's conversation");
  } finally {
    await h.stop();
  }
});

test("a child that reads a secret: its tool result, its summary and its stored session are scrubbed; the parent never gets the secret", async () => {
  const h = await start();
  try {
    writeFileSync(path.join(h.profile.workspaceDir, 'creds.txt'), `token=${SECRET}\n`);
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'find the token' } }] } : { text: 'found it' }),
        child: (_goal, round) => (round === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'creds.txt' } }] } : { text: `the token is ${SECRET}` }),
      }),
    );
    assert.equal(await say(h, 'what is the token'), 'found it');
    const child = childRequests({ requests: h.fake.requests }).get('find the token') ?? [];
    assert.equal(child.length, 2);
    const childTool = (child[1]?.body.messages ?? []).find((m) => m['role'] === 'tool');
    assert.match(String(childTool?.['content']), /token=\*\*\*/);
    const parents = parentRequests({ requests: h.fake.requests });
    assert.ok(parents.every((r: CapturedRequest) => !JSON.stringify(r.body).includes(SECRET)), 'the secret reached the parent');
    assert.match(delegateResults(h)[0] ?? '', /the token is \*\*\*/);
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 10 }).find((s) => s.key.includes(':delegate='));
      assert.ok(session);
      const stored = store.history({ sessionId: session.id });
      assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
      assert.ok(!JSON.stringify(stored).includes(SECRET), 'the secret is in the child session');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});
