import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { toolCallsFor } from '../../../src/agent/tool-calls.js';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { executeCodeTool } from '../../../src/tools/builtin/execute-code.js';
import { probeCodeRuntime } from '../../../src/tools/code/runtime.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { bwrapArgs } from '../../../src/tools/sandbox/bwrap-args.js';
import { runBwrapProbe } from '../../../src/tools/sandbox/probe.js';
import { defineTool } from '../../../src/tools/tool.js';
import { makeSandbox } from './support.js';
import { bwrapAvailability } from '../../helpers/bwrap.js';
import { processesWith } from '../../helpers/processes.js';

test('without python3 on PATH the runtime is JavaScript, the description says so, and a Python script is refused', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-nopy-'));
  const sb = makeSandbox();
  try {
    const runtime = probeCodeRuntime({ searchPath: empty });
    assert.deepEqual(runtime, { language: 'javascript', node: process.execPath });
    const tool = executeCodeTool({ runtime, tools: builtinTools() });
    assert.match(tool.description, / JavaScript \(no python3 here\): a Node ES module with top-level await; import \{ read_file, write_file, patch, search_files, terminal, session_search, web_extract \} from 'hermes_tools'/);
    const registry = new ToolRegistry({ tools: [tool] });
    const ctx = { ...sb.ctx, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const refused = await registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ code: 'print(1)', language: 'python' }) }, ctx });
    assert.deepEqual(refused, { content: 'Error: python3 is not installed here; write the script in JavaScript (language "javascript")', isError: true });
    const ran = await registry.execute({ call: { id: '2', name: 'execute_code', arguments: JSON.stringify({ code: 'console.log(6 * 7)' }) }, ctx });
    assert.deepEqual(ran, { content: '42\n[exit code: 0; 0 tool calls]', isError: false });
  } finally {
    sb.cleanup();
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

test('execute_code without the agent\'s toolCalls (a context that has none) is not available', async () => {
  const sb = makeSandbox();
  try {
    const result = await sb.call('execute_code', { code: 'print(1)' });
    assert.deepEqual(result, { content: 'Error: execute_code is not available here (no tools to call from a script)', isError: true });
  } finally {
    sb.cleanup();
  }
});

test('toolCallsFor: the safe and file tools plus terminal, never memory, delegate_task, clarify, send_message or execute_code; calls are validated and scrubbed like the model\'s', async () => {
  const sb = makeSandbox();
  try {
    const registry = new ToolRegistry({ tools: builtinTools({ memory: true, skills: true, cron: true }) });
    const echo = defineTool({ name: 'echo_safe', description: 'test', input: z.object({ text: z.string() }), parallel: 'safe', handler: async (a) => `echo ${a.text}` });
    const serial = defineTool({ name: 'serial_only', description: 'test', input: z.object({}), parallel: 'never', handler: async () => 'x' });
    registry.register(echo);
    registry.register(serial);
    const tools = toolCallsFor({ registry, ctx: sb.ctx, scrub: (text) => text.replaceAll('s3cret', '***') });
    assert.deepEqual(tools.names, ['read_file', 'write_file', 'patch', 'search_files', 'terminal', 'session_search', 'web_extract', 'skills_list', 'skill_view', 'echo_safe']);
    const signal = new AbortController().signal;
    assert.deepEqual(await tools.call({ name: 'echo_safe', args: { text: 'the s3cret' }, signal }), { content: 'echo the ***', isError: false });
    const bad = await tools.call({ name: 'echo_safe', args: { text: 5 }, signal });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /^Error: invalid arguments for echo_safe: text:/);
    for (const name of ['memory', 'execute_code', 'delegate_task', 'clarify', 'send_message', 'serial_only', 'cronjob']) {
      assert.deepEqual(await tools.call({ name, args: {}, signal }), { content: `Error: ${name} cannot be called from execute_code.`, isError: true });
    }
  } finally {
    sb.cleanup();
  }
});

test('bwrapArgs: a read-only folder (the script\'s) is bound read-only at its own path after the private /tmp', () => {
  const args = bwrapArgs({ settings: { bwrap: '/usr/bin/bwrap', network: false, hide: ['/srv/home'] }, workspace: '/srv/ws', script: 'ls', readOnly: ['/tmp/hermes-code-x'] });
  const tmp = args.indexOf('/tmp');
  const ro = args.lastIndexOf('--ro-bind');
  assert.ok(tmp > 0 && args[tmp - 1] === '--tmpfs');
  assert.deepEqual(args.slice(ro, ro + 3), ['--ro-bind', '/tmp/hermes-code-x', '/tmp/hermes-code-x']);
  assert.ok(ro > tmp, 'bound after the private /tmp is made');
});

test("the output cap applies to a script's terminal calls and to what the script prints", async () => {
  const sb = makeSandbox({ terminal: { timeoutMs: 10_000, maxOutputBytes: 300 } });
  try {
    const ctx = { ...sb.ctx, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const code = [
      "import { terminal } from 'hermes_tools';",
      "const out = await terminal({ command: 'yes abcdefgh | head -c 5000' });",
      "console.log('inner', out.length < 1000, out.includes('[output truncated: '));",
      "console.log('x'.repeat(3000));",
    ].join('\n');
    const result = await sb.registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ language: 'javascript', code }) }, ctx });
    assert.equal(result.isError, false);
    assert.match(result.content, /^inner true true\n/);
    assert.match(result.content, /\[output truncated: \d+ of \d+ bytes omitted/);
    assert.ok(result.content.length < 1000, `${result.content.length} characters came back`);
    assert.match(result.content, /\[exit code: 0; 1 tool call\]$/);
  } finally {
    sb.cleanup();
  }
});

test('an interrupt (the turn\'s signal) kills a running script and says so', async () => {
  const sb = makeSandbox();
  try {
    const abort = new AbortController();
    const ctx = { ...sb.ctx, signal: abort.signal, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const run = sb.registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ language: 'javascript', code: "console.log('up'); setTimeout(() => {}, 600_000);" }) }, ctx });
    setTimeout(() => abort.abort(), 500);
    const result = await run;
    assert.match(result.content, /\[interrupted by the user: the script and its child processes were killed; 0 tool calls\]$/);
  } finally {
    sb.cleanup();
  }
});

test("a script's environment is the terminal's (PATH, HOME = the workspace, LANG, TERM; PWD from the shell) plus Python's two flags, none of the gateway's", async () => {
  const sb = makeSandbox();
  process.env['HERMES_TEST_CODE_SECRET'] = 'gw-secret-in-the-gateway-env';
  try {
    const ctx = { ...sb.ctx, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const code = "console.log(JSON.stringify(Object.keys(process.env).sort()), process.env.HOME === process.cwd());";
    const result = await sb.registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ code, language: 'javascript' }) }, ctx });
    assert.equal(result.content, `${JSON.stringify(['HOME', 'LANG', 'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'TERM'])} true\n[exit code: 0; 0 tool calls]`);
  } finally {
    delete process.env['HERMES_TEST_CODE_SECRET'];
    sb.cleanup();
  }
});

test('the script lives in a private folder (0700) outside the workspace, removed when the run ends', async () => {
  const sb = makeSandbox();
  try {
    const ctx = { ...sb.ctx, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const code = [
      "import fs from 'node:fs'; import path from 'node:path'; import { fileURLToPath } from 'node:url';",
      'const dir = path.dirname(fileURLToPath(import.meta.url));',
      "console.log(dir, (fs.statSync(dir).mode & 0o777).toString(8), fs.readdirSync(dir).sort().join(','), process.cwd());",
    ].join('\n');
    const result = await sb.registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ code, language: 'javascript' }) }, ctx });
    const [dir, mode, files, cwd] = (result.content.split('\n')[0] ?? '').split(' ');
    assert.ok(dir?.startsWith(path.join(os.tmpdir(), 'hermes-code-')), dir);
    assert.equal(mode, '700');
    assert.equal(files, 'node_modules,script.mjs');
    assert.equal(cwd, fs.realpathSync(sb.workspace));
    assert.equal(fs.existsSync(dir ?? ''), false, 'the script folder is still there');
  } finally {
    sb.cleanup();
  }
});

test('a sandbox that is required but unavailable: nothing runs and the model is told why', async () => {
  const sb = makeSandbox();
  try {
    const terminal = { ...sb.ctx.terminal, sandbox: { kind: 'unavailable' as const, reason: 'bwrap cannot create its namespaces here' } };
    const ctx = { ...sb.ctx, terminal, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const result = await sb.registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ code: 'console.log(1)', language: 'javascript' }) }, ctx });
    assert.deepEqual(result, { content: 'Error: bwrap cannot create its namespaces here', isError: true });
  } finally {
    sb.cleanup();
  }
});

const { skip: noBwrap } = bwrapAvailability();

test('under bwrap a script past its timeout is killed with everything it started (the sandbox\'s pid namespace ends)', { skip: noBwrap }, async () => {
  const sb = makeSandbox();
  try {
    const probe = runBwrapProbe();
    assert.ok(probe.ok);
    const sandbox = { kind: 'bwrap' as const, bwrap: probe.bwrap, hide: [sb.outside], network: false };
    const ctx = { ...sb.ctx, terminal: { ...sb.ctx.terminal, sandbox }, codeExecution: { timeoutMs: 1_000, maxToolCalls: 5 }, toolCalls: toolCallsFor({ registry: sb.registry, ctx: sb.ctx }) };
    const marker = `${500 + Math.floor(Math.random() * 400)}.75`;
    const code = `import { spawn } from 'node:child_process';\nspawn('sh', ['-c', 'sleep ${marker}'], { stdio: 'ignore' });\nconsole.log('started');\nsetTimeout(() => {}, 600_000);`;
    const result = await sb.registry.execute({ call: { id: '1', name: 'execute_code', arguments: JSON.stringify({ code, language: 'javascript' }) }, ctx });
    assert.equal(result.content, 'started\n[timed out after 1 s: the script and its child processes were killed; 0 tool calls]');
    assert.deepEqual(processesWith(`sleep\0${marker}`), [], 'the grandchild sleep is gone');
  } finally {
    sb.cleanup();
  }
});
