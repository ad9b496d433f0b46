import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DelegateTask } from '../../../src/tools/capabilities.js';
import { MAX_DELEGATE_TASKS, outcomesText } from '../../../src/tools/builtin/delegate-task.js';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { bareToolContext } from './support.js';

const registry = new ToolRegistry({ tools: builtinTools() });

/** Runs delegate_task with `args` against a delegate that records the tasks and answers each as done (task 2 failed). */
async function call(params: { args: object; ctx?: Partial<ToolContext> }): Promise<{ content: string; isError: boolean; tasks: DelegateTask[][] }> {
  const tasks: DelegateTask[][] = [];
  const ctx: ToolContext = {
    ...bareToolContext(),
    delegate: {
      run: async (p) => {
        tasks.push([...p.tasks]);
        return p.tasks.map((t, i) => (i === 1 ? { goal: t.goal, status: 'failed', summary: 'half of it', error: 'the model endpoint failed' } : { goal: t.goal, status: 'done', summary: `did ${t.goal}` }));
      },
    },
    ...params.ctx,
  };
  const result = await registry.execute({ call: { id: 'c1', name: 'delegate_task', arguments: JSON.stringify(params.args) }, ctx });
  return { ...result, tasks };
}

test('delegate_task: goal or tasks go to the capability; the result has a header per task, its error line and its summary', async () => {
  const one = await call({ args: { goal: 'count files', context: 'in src/', toolsets: ['file'] } });
  assert.deepEqual(one.tasks, [[{ goal: 'count files', context: 'in src/', toolsets: ['file'] }]]);
  assert.equal(one.content, '## Task 1/1: done (count files)\ndid count files');
  const many = await call({ args: { tasks: [{ goal: 'a' }, { goal: 'b', context: 'ctx' }] } });
  assert.deepEqual(many.tasks, [[{ goal: 'a' }, { goal: 'b', context: 'ctx' }]]);
  assert.equal(many.content, '## Task 1/2: done (a)\ndid a\n\n## Task 2/2: failed (b)\nError: the model endpoint failed\nhalf of it');
});

test('delegate_task: neither or both of goal/tasks, an empty or too long task list, no capability: clear errors, nothing delegated', async () => {
  const cases: { args: object; error: RegExp; ctx?: Partial<ToolContext> }[] = [
    { args: {}, error: /needs goal \(one task\) or tasks/ },
    { args: { goal: 'x', tasks: [{ goal: 'y' }] }, error: /either goal .* or tasks .*, not both/ },
    { args: { tasks: [] }, error: /tasks is empty/ },
    { args: { goal: '  ' }, error: /needs goal/ },
    { args: { tasks: [{ goal: 'a' }, { goal: '' }] }, error: /task 2 has an empty goal/ },
    { args: { tasks: Array.from({ length: MAX_DELEGATE_TASKS + 1 }, (_, i) => ({ goal: `g${i}` })) }, error: /at most 10 tasks per call \(got 11\)/ },
    { args: { goal: 'x' }, ctx: { delegate: undefined }, error: /^Error: delegate_task is not available here\.$/ },
  ];
  for (const c of cases) {
    const result = await call({ args: c.args, ...(c.ctx ? { ctx: c.ctx } : {}) });
    assert.equal(result.isError, true, JSON.stringify(c.args).slice(0, 40));
    assert.match(result.content, c.error);
    assert.deepEqual(result.tasks, []);
  }
});

test('delegate_task: ten long summaries share the result, so every task keeps its header, error line and the ends of its summary within the result cap', async () => {
  const outcomes = Array.from({ length: 10 }, (_, i) => ({
    goal: `g${i + 1}`,
    status: i === 9 ? ('budget_exhausted' as const) : ('done' as const),
    summary: `start of ${i + 1} ${'blah '.repeat(6_000)}end of ${i + 1}`,
    ...(i === 9 ? { error: 'ran out of its iteration budget after 50 model calls before finishing' } : {}),
  }));
  const text = outcomesText({ outcomes });
  assert.ok(text.length < 100_000, `${text.length} characters`);
  for (let i = 1; i <= 10; i++) {
    assert.match(text, new RegExp(`## Task ${i}/10: (done|budget_exhausted) \\(g${i}\\)\\n${i === 10 ? 'Error: ran out of its iteration budget[^\\n]*\\n' : ''}start of ${i} `));
    assert.match(text, new RegExp(`characters of this summary cut …\\]\\n[a-z ]*end of ${i}(\\n|$)`));
  }
  // Through the registry (its 100,000-character cap) nothing is cut further.
  const ctx: ToolContext = { ...bareToolContext(), delegate: { run: async () => outcomes } };
  const result = await registry.execute({ call: { id: 'c2', name: 'delegate_task', arguments: JSON.stringify({ tasks: outcomes.map((o) => ({ goal: o.goal })) }) }, ctx });
  assert.equal(result.content, text);
  // A short summary is kept whole.
  assert.equal(outcomesText({ outcomes: [{ goal: 'x', status: 'done', summary: 'short' }] }), '## Task 1/1: done (x)\nshort');
});
