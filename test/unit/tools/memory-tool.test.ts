import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MemoryFiles } from '../../../src/memory/files.js';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { memoryTool } from '../../../src/tools/builtin/memory.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { bareToolContext } from './support.js';
import { systemClock } from '../../../src/core/clock.js';

function context(params: { memory?: MemoryFiles }): ToolContext {
  return {
    ...bareToolContext(),
    ...(params.memory ? { memory: params.memory } : {}),
  };
}

test("the memory tool has Hermes's shape: action, target, content?, old_text?", () => {
  const registry = new ToolRegistry({ tools: [memoryTool] });
  const [schema] = registry.toOpenAITools();
  assert.equal(schema?.function.name, 'memory');
  const parameters = schema?.function.parameters as { properties: Record<string, { enum?: string[] }>; required: string[] };
  assert.deepEqual(Object.keys(parameters.properties).sort(), ['action', 'content', 'old_text', 'target']);
  assert.deepEqual(parameters.properties['action']?.enum, ['add', 'replace', 'remove']);
  assert.deepEqual(parameters.properties['target']?.enum, ['memory', 'user']);
  assert.deepEqual([...parameters.required].sort(), ['action', 'target']);
  assert.match(schema?.function.description ?? '', /'user'.*who the user is/s);
  assert.match(schema?.function.description ?? '', /'memory'.*your own notes/s);
  assert.equal(memoryTool.parallel, 'never');
});

test('through the registry, a call with old_text adds and replaces entries in the files', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-memory-tool-'));
  try {
    const memory = new MemoryFiles({ memoriesDir: dir, settings: { memoryEnabled: true, userEnabled: true, memoryCharLimit: 2200, userCharLimit: 1375 }, containsSecret: () => false, clock: systemClock });
    const registry = new ToolRegistry({ tools: builtinTools({ memory: true }) });
    const ctx = context({ memory });
    const add = await registry.execute({ call: { id: '1', name: 'memory', arguments: JSON.stringify({ action: 'add', target: 'user', content: 'Prefers short answers' }) }, ctx });
    assert.equal(add.isError, false);
    assert.match(add.content, /next session/);
    const replace = await registry.execute({ call: { id: '2', name: 'memory', arguments: JSON.stringify({ action: 'replace', target: 'user', old_text: 'short', content: 'Prefers short answers, no emoji' }) }, ctx });
    assert.equal(replace.isError, false);
    assert.equal(readFileSync(path.join(dir, 'USER.md'), 'utf8'), 'Prefers short answers, no emoji');
    const ambiguous = await registry.execute({ call: { id: '3', name: 'memory', arguments: JSON.stringify({ action: 'remove', target: 'user', old_text: 'nothing like it' }) }, ctx });
    assert.equal(ambiguous.isError, true);
    assert.match(ambiguous.content, /^Error: No entry of USER\.md contains "nothing like it"[\s\S]*1\. Prefers short answers, no emoji/);
    const bad = await registry.execute({ call: { id: '4', name: 'memory', arguments: JSON.stringify({ action: 'forget', target: 'user' }) }, ctx });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /invalid arguments for memory/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a memory capability in the context, the tool says memory is off', async () => {
  const registry = new ToolRegistry({ tools: [memoryTool] });
  const result = await registry.execute({ call: { id: '1', name: 'memory', arguments: JSON.stringify({ action: 'add', target: 'memory', content: 'x' }) }, ctx: context({}) });
  assert.equal(result.isError, true);
  assert.match(result.content, /memory is off/);
});

test('the built-in tools include memory only when asked', () => {
  assert.ok(!builtinTools().some((tool) => tool.name === 'memory'));
  assert.ok(builtinTools({ memory: true }).some((tool) => tool.name === 'memory'));
});
