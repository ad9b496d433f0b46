import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { mcpServerSchema } from '../../src/config/mcp-schema.js';
import { systemClock } from '../../src/core/clock.js';
import { McpServers } from '../../src/mcp/servers.js';
import { snapshotText, unavailableMcpNote } from '../../src/mcp/snapshot.js';
import { connectMcp } from '../../src/mcp/transport.js';
import { probeMcpServer } from '../../src/mcp/probe.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { bareToolContext } from '../unit/tools/support.js';
import { until } from '../helpers/gateway-process.js';
import { capturingLogger } from '../helpers/review.js';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const injection = fileURLToPath(new URL('../fakes/mcp/injection-server.mjs', import.meta.url));

test('a profile\'s servers: connected ones give a new session their tools (filtered, the injected one refused once), a failed one is named in the prompt note, a disabled one is left alone', { timeout: 60_000 }, async () => {
  const { logger, lines } = capturingLogger();
  const servers = new McpServers({
    servers: {
      everything: mcpServerSchema.parse({ command: process.execPath, args: [everything, 'stdio'], tools: { exclude: ['trigger-*', 'toggle-*'] } }),
      tricky: mcpServerSchema.parse({ command: process.execPath, args: [injection], approval: 'off' }),
      broken: mcpServerSchema.parse({ command: '/nonexistent/mcp-server' }),
      off: mcpServerSchema.parse({ command: process.execPath, args: [everything, 'stdio'], enabled: false }),
    },
    clock: systemClock,
    logger,
    connect: connectMcp,
    backoff: { baseMs: 100, maxMs: 1_000 },
  });
  servers.start();
  try {
    await until({ what: 'both good servers connected', timeoutMs: 30_000, check: () => servers.status().filter((s) => s.state?.kind === 'connected').length === 2 });
    const first = servers.snapshot({ taken: new Set(['read_file', 'terminal']) });
    const names = first.tools.map((tool) => tool.name);
    // server-everything has resources and prompts: their wrappers are offered; the injection server has neither.
    for (const name of ['mcp_everything_list_resources', 'mcp_everything_read_resource', 'mcp_everything_list_prompts', 'mcp_everything_get_prompt']) assert.ok(names.includes(name), `${name} missing`);
    assert.ok(!names.includes('mcp_tricky_list_resources'));
    for (const name of ['mcp_everything_echo', 'mcp_everything_get_sum', 'mcp_tricky_add']) assert.ok(names.includes(name), `${name} missing from ${names.join(', ')}`);
    assert.ok(!names.some((name) => name.startsWith('mcp_everything_trigger_') || name.startsWith('mcp_everything_toggle_')), names.join(', '));
    assert.ok(!names.includes('mcp_tricky_helper'), 'the injected tool was offered');
    assert.ok(!names.some((name) => name.startsWith('mcp_off_')));
    assert.deepEqual(first.unavailable.map((server) => server.name), ['broken']);
    assert.match(first.unavailable[0]?.cause ?? '', /ENOENT|nonexistent/);
    assert.match(unavailableMcpNote(first), /MCP servers not available[\s\S]*- broken: MCP server "broken" is reconnecting/);
    // A second session: the same tools, and the refusal is not logged again.
    const second = servers.snapshot({ taken: new Set(['read_file', 'terminal']) });
    assert.deepEqual(second.tools.map((tool) => tool.name), names);
    assert.equal(lines.filter((line) => /tool helper is not offered: its description/.test(String(line['msg']))).length, 1);
    // The tools work through the registry the agent uses.
    const registry = new ToolRegistry({ tools: servers.toolsFor({ snapshot: first, key: snapshotText({ snapshot: first }) }) });
    const sum = await registry.execute({ call: { id: '1', name: 'mcp_tricky_add', arguments: '{"a":2,"b":3}' }, ctx: bareToolContext() });
    assert.equal(sum.content, '<mcp_output server="tricky" tool="add">\n5\n</mcp_output>');
    const echo = await registry.execute({ call: { id: '2', name: 'mcp_everything_echo', arguments: '{"message":"hi"}' }, ctx: { ...bareToolContext(), approval: { decide: () => Promise.resolve({ approved: true, how: 'once' }) } } });
    assert.match(echo.content, /Echo: hi/);
    // The resource and prompt wrappers: list, then read the first resource listed; list prompts, then get one.
    const listed = await registry.execute({ call: { id: '3', name: 'mcp_everything_list_resources', arguments: '{}' }, ctx: bareToolContext() });
    assert.equal(listed.isError, false, listed.content);
    const uri = /^- (\S+) /m.exec(listed.content)?.[1];
    assert.ok(uri !== undefined, listed.content);
    const read = await registry.execute({ call: { id: '4', name: 'mcp_everything_read_resource', arguments: JSON.stringify({ uri }) }, ctx: bareToolContext() });
    assert.equal(read.isError, false, read.content);
    assert.match(read.content, new RegExp(`\\[resource ${uri.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const prompts = await registry.execute({ call: { id: '5', name: 'mcp_everything_list_prompts', arguments: '{}' }, ctx: bareToolContext() });
    assert.match(prompts.content, /^- simple-prompt\(/m);
    const prompt = await registry.execute({ call: { id: '6', name: 'mcp_everything_get_prompt', arguments: '{"name":"simple-prompt"}' }, ctx: bareToolContext() });
    assert.equal(prompt.isError, false, prompt.content);
    assert.match(prompt.content, /^user: /m);
    const missing = await registry.execute({ call: { id: '7', name: 'mcp_everything_read_resource', arguments: '{}' }, ctx: bareToolContext() });
    assert.match(missing.content, /the argument "uri" \(a string\) is missing/);
    const status = servers.status();
    assert.deepEqual(status.map((s) => [s.name, s.transport, s.state?.kind ?? 'disabled']), [
      ['everything', 'stdio', 'connected'],
      ['tricky', 'stdio', 'connected'],
      ['broken', 'stdio', status[2]?.state?.kind ?? 'disabled'],
      ['off', 'stdio', 'disabled'],
    ]);
    assert.deepEqual(status[1]?.refused.map((r) => r.tool), ['helper']);
  } finally {
    await servers.close();
  }
});

test('probing a server once (hermes mcp test): start, tools, ping, then the child ends; a failure says why, with its last stderr line; a silent one times out', { timeout: 60_000 }, async () => {
  const good = await probeMcpServer({ name: 'everything', config: mcpServerSchema.parse({ command: process.execPath, args: [everything, 'stdio'], tools: { include: ['echo', 'get-*'] } }), clock: systemClock, connect: connectMcp });
  assert.equal(good.ok, true, good.lines.join('\n'));
  assert.match(good.lines[0] ?? '', /^✓ started in \d+ ms \(.+\)$/);
  assert.match(good.lines[1] ?? '', /^✓ \d+ tools offered \(\d+ left out by tools.include\/exclude\): echo, /);
  assert.ok(good.tools.every((tool) => tool === 'echo' || tool.startsWith('get-')), good.tools.join(', '));
  assert.match(good.lines[2] ?? '', /^✓ its resources and prompts are offered too: list_resources, read_resource, list_prompts, get_prompt$/);
  assert.match(good.lines[3] ?? '', /^✓ ping answered in \d+ ms$/);
  const failing = await probeMcpServer({ name: 'broken', config: mcpServerSchema.parse({ command: process.execPath, args: ['-e', 'console.error("cannot open /var/db/x"); process.exit(2)'] }), clock: systemClock, connect: connectMcp });
  assert.equal(failing.ok, false);
  assert.match(failing.lines.at(-1) ?? '', /^✗ .*; its last line on stderr: cannot open \/var\/db\/x$/);
  const silent = await probeMcpServer({ name: 'silent', config: mcpServerSchema.parse({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], connect_timeout: '1s' }), clock: systemClock, connect: connectMcp });
  assert.equal(silent.ok, false);
  assert.match(silent.lines.at(-1) ?? '', /^✗ no answer within connect_timeout \(1s\) after \d+ ms$/);
});
