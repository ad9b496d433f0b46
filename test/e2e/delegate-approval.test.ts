import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { makeBuild, pressAndSettle, startApprovals, waitQuestion } from '../helpers/approvals.js';
import { childRequests, delegateResponder, parentRequests } from '../helpers/delegate.js';

test("a child's dangerous command asks the owner like the parent's would: Allow once runs it, the parent gets the child's summary", async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'clean the build', toolsets: ['terminal'] } }] } : { text: 'cleaned' }),
        child: (_goal, round) => (round === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] } : { text: 'removed build' }),
      }),
    );
    await h.adapter.inject({ text: 'clean up via a sub-agent' });
    const q = await waitQuestion(h);
    assert.match(q.text, /^⚠️ The agent wants to run a dangerous command \(terminal\):\n`rm -rf build`/);
    assert.ok(existsSync(build), 'the command ran before the owner answered');
    await pressAndSettle(h, q, 'Allow once');
    assert.equal(existsSync(build), false, 'the allowed command did not run');
    const child = childRequests({ requests: h.fake.requests }).get('clean the build') ?? [];
    assert.equal(child.length, 2);
    assert.deepEqual(
      (child[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name),
      ['terminal'],
      'toolsets: ["terminal"] gives the child the terminal only',
    );
    const result = (child[1]?.body.messages ?? []).find((m) => m['role'] === 'tool');
    assert.equal(result?.['content'], '(no output)\n[exit code: 0]');
    const parentTool = (parentRequests({ requests: h.fake.requests })[1]?.body.messages ?? []).find((m) => m['role'] === 'tool');
    assert.equal(parentTool?.['content'], '## Task 1/1: done (clean the build)\nremoved build');
  } finally {
    await h.stop();
  }
});
