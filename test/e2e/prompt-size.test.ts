import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goalLines, mcpPromptLines, promptSizeGoalBytes, promptSizeLines, runMcpPromptBench, runPromptSize, runSkillsIndexBench, skillsIndexLines, toolTableLines } from '../../bench/prompt-size.js';
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
  assert.match(lines[0] ?? '', new RegExp(`= ${figures.systemBytes + figures.toolsBytes} bytes .*goal ≤ 10\\.0 KB — within`));
  assert.match(lines[2] ?? '', /identity \d+, tool_guidance \d+, system_prompt 0, memory 0, skills 0, context_files 0, mcp_servers 0, runtime \d+/);
});

test('issue 27: on telegram under `gateway run` (cronjob offered too) the first request stays within 10 KB; the bench prints each tool, largest first', async () => {
  const terminal = await runPromptSize();
  const telegram = await runPromptSize({ platform: 'telegram' });
  assert.equal(telegram.toolCount, builtinTools({ memory: true, skills: true, cron: true }).length);
  assert.ok(telegram.toolBytes.some((t) => t.name === 'cronjob') && !terminal.toolBytes.some((t) => t.name === 'cronjob'));
  for (const figures of [terminal, telegram]) {
    assert.ok(figures.systemBytes + figures.toolsBytes <= promptSizeGoalBytes, `${figures.platform}: ${figures.systemBytes + figures.toolsBytes} bytes`);
    for (const tool of figures.toolBytes) {
      // The description and the schema are parts of the tool's JSON; tokens are counted (o200k).
      assert.ok(tool.descriptionBytes + tool.schemaBytes < tool.bytes && tool.tokens > 0, tool.name);
    }
  }
  const table = toolTableLines({ figures: telegram });
  assert.match(table[1] ?? '', /tool\s+description\s+schema\s+total\s+tokens/);
  const totals = table.slice(2, -1).map((line) => Number(line.trim().split(/\s+/)[3]));
  assert.deepEqual(totals, [...totals].sort((a, b) => b - a), 'largest first');
  assert.equal(totals.length, telegram.toolCount);
  assert.match(table.at(-1) ?? '', new RegExp(`^  all\\s+\\d+\\s+\\d+\\s+${telegram.toolsBytes}\\s+${telegram.toolsTokens}$`));
  const goal = goalLines({ figures: [terminal, telegram] });
  assert.match(goal[0] ?? '', /≤ 10240 bytes \(10\.0 KB\)/);
  assert.match(goal[2] ?? '', new RegExp(`^  telegram\\s+${telegram.systemBytes + telegram.toolsBytes} bytes .*${telegram.toolCount} tools\\): within$`));
});

test("issue 16's four tools (send_message, delegate_task, clarify, execute_code) are all in the first request, which stays within the prompt-size goal", async () => {
  const figures = await runPromptSize();
  const byName = new Map(figures.toolBytes.map((t) => [t.name, t.bytes]));
  const four = ['send_message', 'delegate_task', 'clarify', 'execute_code'];
  for (const name of four) assert.ok((byName.get(name) ?? 0) > 0, `${name} is not offered`);
  assert.equal(figures.toolBytes.reduce((n, t) => n + t.bytes, 0) + Math.max(0, figures.toolBytes.length - 1) + 2, figures.toolsBytes);
  const fourBytes = four.reduce((n, name) => n + (byName.get(name) ?? 0), 0);
  // Their schemas together are a fair share of the tools JSON, not most of it; the whole fixed part stays in budget.
  assert.ok(fourBytes < 4500, `the four tools' schemas take ${fourBytes} bytes`);
  assert.ok(figures.systemBytes + figures.toolsBytes <= promptSizeGoalBytes, `${figures.systemBytes + figures.toolsBytes} bytes`);
});

test('the skills-index bench: 100 generated skills grow the first request by the index only (its characters, the blank line, JSON escapes of its newlines)', async () => {
  const figures = await runSkillsIndexBench({ count: 100 });
  const index = figures.with.layers.find((l) => l.name === 'skills')?.chars ?? 0;
  assert.equal(figures.without.layers.find((l) => l.name === 'skills')?.chars, 0);
  assert.ok(index > 1000 && index <= 8000, `${index} chars`);
  assert.equal(figures.with.toolsBytes, figures.without.toolsBytes);
  const grew = figures.with.requestBytes - figures.without.requestBytes;
  // ASCII index: each of its newlines (and the two separating it) costs one more byte as "\n" in JSON.
  assert.ok(grew >= index + 2 && grew <= index + 2 + 2 * 120, `grew ${grew} for an index of ${index}`);
  assert.match(skillsIndexLines({ figures })[0] ?? '', /^skills index: first request \d+ bytes with 0 skills, \d+ bytes with 100 generated skills \(\+\d+\); the skills layer is \d+ chars, .*tools JSON unchanged$/);
});

test('issue 28: the MCP bench measures the first Telegram request with server-everything attached (every tool, then trimmed, then with lean tool sets)', { timeout: 120_000 }, async () => {
  const figures = await runMcpPromptBench();
  const mcp = (f: typeof figures.none): string[] => f.toolBytes.map((t) => t.name).filter((name) => name.startsWith('mcp_everything_'));
  assert.deepEqual(mcp(figures.none), []);
  assert.ok(mcp(figures.everything).length >= 10, mcp(figures.everything).join(', '));
  assert.deepEqual(mcp(figures.trimmed), ['mcp_everything_echo', 'mcp_everything_get_sum']);
  assert.deepEqual(mcp(figures.lean), ['mcp_everything_echo', 'mcp_everything_get_sum']);
  const fixed = (f: typeof figures.none): number => f.systemBytes + f.toolsBytes;
  assert.ok(fixed(figures.everything) > fixed(figures.trimmed) && fixed(figures.trimmed) > fixed(figures.none) && fixed(figures.lean) < fixed(figures.none), JSON.stringify([figures.none, figures.everything, figures.trimmed, figures.lean].map(fixed)));
  assert.match(mcpPromptLines({ figures }).join('\n'), /server-everything, every tool +\d+ bytes \([\d.]+ KB, ~\d+ tokens\), \d+ tools \(\d+ MCP: \d+ bytes\)/);
});
