import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promptSizeGoalBytes, promptSizeLines, runPromptSize } from '../../bench/prompt-size.js';
import { builtinTools } from '../../src/tools/builtin/index.js';

test('the prompt-size bench measures the first real request of a fresh default profile: system prompt and every built-in tool', async () => {
  const figures = await runPromptSize();
  assert.equal(figures.toolCount, builtinTools({ memory: true, skills: true }).length);
  assert.equal(figures.model, 'gpt-4o-mini');
  const nonEmpty = figures.layers.filter((l) => l.chars > 0);
  assert.deepEqual(nonEmpty.map((l) => l.name), ['identity', 'tool_guidance', 'runtime']);
  // ASCII prompt: bytes = characters of the layers plus the blank lines between them.
  assert.ok(figures.systemBytes >= nonEmpty.reduce((n, l) => n + l.chars, 0) + 2 * (nonEmpty.length - 1));
  assert.ok(figures.toolsBytes > 1000);
  // The memory and session_search guidance included, the fixed part stays in budget.
  assert.ok(figures.systemBytes + figures.toolsBytes <= promptSizeGoalBytes, `${figures.systemBytes + figures.toolsBytes} bytes`);
  assert.ok(figures.requestBytes > figures.systemBytes + figures.toolsBytes);
  const lines = promptSizeLines({ figures });
  assert.match(lines[0] ?? '', new RegExp(`= ${figures.systemBytes + figures.toolsBytes} bytes .*goal ≤ 15\\.0 KB`));
  assert.match(lines[2] ?? '', /identity \d+, tool_guidance \d+, system_prompt 0, memory 0, skills 0, context_files 0, runtime \d+/);
});
