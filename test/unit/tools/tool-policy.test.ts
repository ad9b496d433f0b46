import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { z } from 'zod';
import { systemClock } from '../../../src/core/clock.js';
import { ToolError } from '../../../src/core/errors.js';
import { childRegistry, TOOLSETS } from '../../../src/gateway/delegate/toolsets.js';
import { reviewOptionsFrom } from '../../../src/gateway/review/options.js';
import { ToolProgress } from '../../../src/gateway/turns/tool-progress.js';
import { BUILTIN_TOOLS, builtinTools } from '../../../src/tools/builtin/index.js';
import { codeCallableTools, directOnlyNames } from '../../../src/tools/code/callable.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { defineTool, type ToolDefinition } from '../../../src/tools/tool.js';
import { loadTempConfig } from '../config/temp-profile.js';

// The lists as they were written out by name before the policy moved onto the tools' definitions.
const OLD_CHILD_BLOCKED = ['delegate_task', 'clarify', 'memory', 'send_message', 'execute_code'];
const OLD_TOOLSETS: Record<string, readonly string[]> = {
  file: ['read_file', 'write_file', 'patch', 'search_files'],
  terminal: ['terminal'],
  search: ['search_files', 'session_search'],
  session_search: ['session_search'],
  web: ['web_search', 'web_extract'],
  skills: ['skills_list', 'skill_view', 'skill_manage'],
  cronjob: ['cronjob'],
  // Named for profiles' toolsets (issue 28); a child never gets these tools (childBlocked), so a task naming one is refused.
  memory: ['memory'],
  delegation: ['delegate_task'],
  // execute_code is made per registry (not one of BUILTIN_TOOLS); it names code_execution itself.
  code_execution: [],
  messaging: ['send_message'],
  clarify: ['clarify'],
  vision: ['vision_analyze'],
};
const OLD_NOT_CALLABLE_FROM_CODE = ['delegate_task', 'clarify', 'send_message', 'memory', 'execute_code'];
const OLD_REVIEW_TOOLS = ['skills_list', 'skill_view', 'skill_manage', 'memory'];
const OLD_LOOKS: Record<string, { emoji: string; arg?: string; style?: 'colon' | 'space' | 'quoted' }> = {
  terminal: { emoji: '⚙', arg: 'command', style: 'colon' },
  read_file: { emoji: '📖', arg: 'path' },
  write_file: { emoji: '✍', arg: 'path' },
  patch: { emoji: '✍', arg: 'path' },
  search_files: { emoji: '🔎', arg: 'pattern', style: 'quoted' },
  memory: { emoji: '🧠', arg: 'action', style: 'colon' },
  session_search: { emoji: '🔍', arg: 'query', style: 'quoted' },
  skill_view: { emoji: '📚', arg: 'name' },
  skills_list: { emoji: '📚' },
  skill_manage: { emoji: '📚', arg: 'name' },
  cronjob: { emoji: '⏰', arg: 'action' },
  delegate_task: { emoji: '🤝', arg: 'goal', style: 'colon' },
  execute_code: { emoji: '🐍' },
  clarify: { emoji: '❓' },
  send_message: { emoji: '✉', arg: 'target', style: 'colon' },
  // Issue 29's web tools (web_search only with a search service, so not in `all`).
  web_extract: { emoji: '🌐', arg: 'url' },
};

const all = builtinTools({ memory: true, skills: true, cron: true });
const names = (tools: readonly ToolDefinition[]): string[] => tools.map((tool) => tool.name);
const sorted = (list: readonly string[]): string[] => [...list].sort();

test('the lists derived from the definitions equal the ones once written out by name', () => {
  assert.deepEqual(sorted(names(all.filter((tool) => tool.childBlocked === true))), sorted(OLD_CHILD_BLOCKED));
  assert.deepEqual(Object.fromEntries(TOOLSETS), OLD_TOOLSETS);
  assert.deepEqual(names(codeCallableTools({ tools: all })), ['read_file', 'write_file', 'patch', 'search_files', 'terminal', 'session_search', 'web_extract', 'skills_list', 'skill_view']);
  assert.deepEqual(sorted(directOnlyNames({ tools: all })), sorted(OLD_NOT_CALLABLE_FROM_CODE));
  assert.deepEqual(sorted(names(all.filter((tool) => tool.review === true))), sorted(OLD_REVIEW_TOOLS));
  assert.deepEqual(Object.fromEntries(all.map((tool) => [tool.name, tool.progress])), OLD_LOOKS);
  assert.deepEqual(names(all.filter((tool) => tool.freeRound === true || tool.callsTools === true)), ['execute_code']);
});

test('the switches offer what they did: memory, the three skills tools, cronjob, web_search, vision_analyze; execute_code always last', () => {
  const base = ['read_file', 'write_file', 'patch', 'search_files', 'terminal', 'session_search', 'web_extract', 'send_message', 'delegate_task', 'clarify'];
  assert.deepEqual(names(builtinTools()), [...base, 'execute_code']);
  assert.deepEqual(names(builtinTools({ web_search: true })), [...base.slice(0, 6), 'web_search', ...base.slice(6), 'execute_code']);
  assert.deepEqual(names(builtinTools({ vision: true })), [...base.slice(0, 7), 'vision_analyze', ...base.slice(7), 'execute_code']);
  assert.deepEqual(names(builtinTools({ memory: true })), [...base, 'memory', 'execute_code']);
  assert.deepEqual(names(builtinTools({ skills: true })), [...base, 'skills_list', 'skill_view', 'skill_manage', 'execute_code']);
  assert.deepEqual(names(all), [...base, 'memory', 'skills_list', 'skill_view', 'skill_manage', 'cronjob', 'execute_code']);
  assert.deepEqual(names(BUILTIN_TOOLS), names(builtinTools({ memory: true, skills: true, cron: true, web_search: true, vision: true })).slice(0, -1));
});

test("each shown argument is one of its tool's arguments", () => {
  for (const tool of all) {
    const arg = tool.progress?.arg;
    if (arg === undefined) continue;
    assert.ok(tool.input instanceof z.ZodObject && arg in tool.input.shape, `${tool.name} shows ${arg}, not one of its arguments`);
  }
});

test("toolsets keep Hermes Agent's names and error texts; a toolset whose tools this agent lacks names them", () => {
  const parent = new ToolRegistry({ tools: builtinTools() });
  const refusal = (toolsets: string[]): string => {
    try {
      childRegistry({ parent, toolsets });
    } catch (error) {
      assert.ok(error instanceof ToolError);
      return error.message;
    }
    return 'no error';
  };
  assert.equal(refusal(['files']), 'unknown toolset "files"; known toolsets: file, terminal, search, session_search, web, skills, cronjob, memory, delegation, code_execution, messaging, clarify, vision.');
  assert.equal(refusal(['constructor']), 'unknown toolset "constructor"; known toolsets: file, terminal, search, session_search, web, skills, cronjob, memory, delegation, code_execution, messaging, clarify, vision.');
  assert.equal(refusal(['vision']), 'toolset "vision" has no tools in this agent (it would need vision_analyze); leave it out.');
  assert.deepEqual(names(childRegistry({ parent, toolsets: ['web'] }).list()), ['web_extract']);
  assert.equal(refusal([' Skills ']), 'toolset " Skills " has no tools in this agent (it would need skills_list or skill_view or skill_manage); leave it out.');
  assert.equal(refusal(['cronjob']), 'toolset "cronjob" has no tools in this agent (it would need cronjob); leave it out.');
  assert.deepEqual(names(childRegistry({ parent, toolsets: ['FILE'] }).list()), ['read_file', 'write_file', 'patch', 'search_files']);
});

test('a new tool with the fields set lands in the right lists; one named like a placeholder fills its toolset', async () => {
  const fetcher = defineTool({
    name: 'web_fetch_page',
    description: 'test',
    input: z.object({ url: z.string(), body: z.string().optional() }),
    parallel: 'safe',
    toolsets: ['web', 'search'],
    codeCallable: false,
    review: true,
    progress: { emoji: '🌐', arg: 'url', style: 'colon' },
    handler: async () => 'page',
  });
  const owner = defineTool({ name: 'ask_owner', description: 'test', input: z.object({}), parallel: 'safe', childBlocked: true, handler: async () => 'ok' });
  const webSearch = defineTool({ name: 'web_search', description: 'test', input: z.object({ query: z.string() }), parallel: 'safe', handler: async () => 'hits' });
  const parent = new ToolRegistry({ tools: [...all, fetcher, owner, webSearch] });

  assert.deepEqual(names(childRegistry({ parent, toolsets: ['web'] }).list()), ['web_extract', 'web_fetch_page', 'web_search']);
  assert.deepEqual(names(childRegistry({ parent, toolsets: ['search'] }).list()), ['search_files', 'session_search', 'web_fetch_page']);
  const child = names(childRegistry({ parent }).list());
  assert.ok(child.includes('web_fetch_page') && child.includes('web_search') && !child.includes('ask_owner'));
  assert.deepEqual(names(childRegistry({ parent: new ToolRegistry({ tools: [fetcher] }), toolsets: ['web'] }).list()), ['web_fetch_page']);

  const callable = names(codeCallableTools({ tools: parent.list() }));
  assert.ok(callable.includes('ask_owner') && callable.includes('web_search') && !callable.includes('web_fetch_page'));
  assert.ok(directOnlyNames({ tools: parent.list() }).includes('web_fetch_page'));

  const { config } = (await loadTempConfig('')).loaded;
  const review = reviewOptionsFrom({ config, registry: parent, clock: systemClock, logger: pino({ level: 'silent' }), scrub: (text) => text });
  assert.deepEqual(sorted(review.toolNames), sorted([...OLD_REVIEW_TOOLS, 'web_fetch_page']));

  const lines: string[] = [];
  const progress = new ToolProgress({ mode: 'all', scrub: (text) => text, sink: { progress: (p) => lines.splice(0, lines.length, ...p.lines) }, looks: (name) => parent.get(name)?.progress });
  progress.call({ name: 'web_fetch_page', arguments: JSON.stringify({ url: 'https://example.org', body: 'never shown' }) });
  progress.call({ name: 'web_search', arguments: JSON.stringify({ query: 'x' }) });
  assert.deepEqual(lines, ['🌐 web_fetch_page: https://example.org', '🔧 web_search']);
});
