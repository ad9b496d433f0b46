import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { SkillManageRequest, SkillsCapability } from '../../../src/skills/types.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { systemClock } from '../../../src/core/clock.js';

const baseCtx: ToolContext = { workspace: '/tmp', confineToWorkspace: true, signal: new AbortController().signal, clock: systemClock, terminal: { timeoutMs: 1000, maxOutputBytes: 1000 }, sessionId: 'sess-7' };

/** A capability that records what it was asked. */
function recording(): { skills: SkillsCapability; calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    skills: {
      list: async ({ category }) => (calls.push({ list: category }), 'listed'),
      view: async ({ name, filePath }) => (calls.push({ view: name, filePath }), 'viewed'),
      manage: async (request: SkillManageRequest & { sessionId?: string; signal: AbortSignal }) => {
        const { signal: _signal, ...rest } = request;
        calls.push(rest);
        return 'managed';
      },
    },
  };
}

test('the skills tools are registered only with skills on; list and view are parallel-safe, manage never runs beside others', () => {
  const names = (params: { skills?: boolean }): string[] => builtinTools(params).map((t) => t.name);
  assert.ok(!names({}).some((n) => n.startsWith('skill')));
  const tools = builtinTools({ skills: true });
  assert.equal(tools.find((t) => t.name === 'skills_list')?.parallel, 'safe');
  assert.equal(tools.find((t) => t.name === 'skill_view')?.parallel, 'safe');
  assert.equal(tools.find((t) => t.name === 'skill_manage')?.parallel, 'never');
});

test('the tools pass their snake_case arguments (and the session) to the capability', async () => {
  const registry = new ToolRegistry({ tools: builtinTools({ skills: true }) });
  const { skills, calls } = recording();
  const ctx = { ...baseCtx, skills };
  const run = (name: string, args: object): Promise<{ content: string; isError: boolean }> => registry.execute({ call: { id: 'c', name, arguments: JSON.stringify(args) }, ctx });
  assert.equal((await run('skills_list', { category: 'devops' })).content, 'listed');
  assert.equal((await run('skill_view', { name: 'a', file_path: 'references/x.md' })).content, 'viewed');
  const manage = { action: 'patch', name: 'a', category: 'c', content: 'C', old_string: 'o', new_string: 'n', file_path: 'references/x.md', file_content: 'F' };
  assert.equal((await run('skill_manage', manage)).content, 'managed');
  assert.deepEqual(calls, [
    { list: 'devops' },
    { view: 'a', filePath: 'references/x.md' },
    { action: 'patch', name: 'a', category: 'c', content: 'C', oldString: 'o', newString: 'n', filePath: 'references/x.md', fileContent: 'F', sessionId: 'sess-7' },
  ]);
  const bad = await run('skill_manage', { action: 'rename', name: 'a' });
  assert.equal(bad.isError, true);
});

test('without the skills slot every skills tool answers a clear error', async () => {
  const registry = new ToolRegistry({ tools: builtinTools({ skills: true }) });
  for (const [name, args] of [['skills_list', {}], ['skill_view', { name: 'a' }], ['skill_manage', { action: 'delete', name: 'a' }]] as const) {
    const result = await registry.execute({ call: { id: 'c', name, arguments: JSON.stringify(args) }, ctx: baseCtx });
    assert.equal(result.isError, true, name);
    assert.match(result.content, /skills are not available to this agent/, name);
  }
});
