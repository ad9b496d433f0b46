import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { say } from '../helpers/converse.js';
import { until } from '../helpers/gateway-process.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { closedPort } from '../helpers/ports.js';
import { pino } from 'pino';
import { parse, stringify } from 'yaml';
import { GatewayReloader } from '../../src/app/reload.js';
import { Redactor } from '../../src/log/redact.js';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const changing = fileURLToPath(new URL('../fakes/mcp/changing-server.mjs', import.meta.url));

/** The tool names a model request offered. */
function offered(request: CapturedRequest | undefined): string[] {
  return (request?.body.tools ?? []).map((tool) => String((tool as { function: { name: string } }).function.name));
}

/** The text of the system message of a request. */
function systemPrompt(request: CapturedRequest | undefined): string {
  return String(request?.body.messages?.find((m) => m['role'] === 'system')?.['content'] ?? '');
}

/** The tool results the model was sent in a request, in order. */
function toolResults(request: CapturedRequest | undefined): string[] {
  return (request?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
}

/** Waits until every enabled MCP server of the harness's gateway has connected. */
async function connected(h: Harness, names: readonly string[]): Promise<void> {
  await until({ what: `MCP servers ${names.join(', ')} connected`, timeoutMs: 30_000, check: () => names.every((name) => h.mcp.status().find((s) => s.name === name)?.state?.kind === 'connected') });
}

test('through the gateway: the model calls server-everything\'s echo and get-sum (results fenced), an excluded tool is never offered, a server that cannot start is named in the prompt, and the tool list is the same on every request of the session and after a restart', { timeout: 90_000 }, async () => {
  const h = await startHarness({
    config: {
      skills: { review: false },
      memory: { review_interval: 1000 },
      mcp_servers: {
        everything: { command: process.execPath, args: [everything, 'stdio'], tools: { exclude: ['get-env', 'trigger-*', 'toggle-*'] }, approval: 'off' },
        broken: { command: '/nonexistent/mcp-server' },
      },
    },
  });
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: 'hello from the gateway' } }, { name: 'mcp_everything_get_sum', arguments: { a: 19, b: 23 } }] },
      { text: 'echoed and added' },
    );
    // The first message may arrive before the servers are up: the new session waits for their first outcome.
    assert.equal(await say(h, 'echo something and add 19 and 23'), 'echoed and added');
    const [first, second] = h.fake.requests;
    const names = offered(first);
    for (const name of ['mcp_everything_echo', 'mcp_everything_get_sum', 'mcp_everything_list_resources', 'terminal', 'memory']) assert.ok(names.includes(name), `${name} not offered: ${names.join(', ')}`);
    assert.ok(!names.includes('mcp_everything_get_env'), 'an excluded tool was offered');
    assert.ok(!names.some((name) => name.startsWith('mcp_everything_trigger_') || name.startsWith('mcp_broken_')), names.join(', '));
    assert.match(systemPrompt(first), /## MCP servers not available\n[\s\S]*- broken: MCP server "broken" is (reconnecting|still starting)/);
    const results = toolResults(second);
    assert.equal(results.length, 2);
    assert.match(results[0] ?? '', /^<mcp_output server="everything" tool="echo">\nEcho: hello from the gateway\n<\/mcp_output>$/);
    assert.match(results[1] ?? '', /^<mcp_output server="everything" tool="get-sum">\n[\s\S]*\b42\b[\s\S]*<\/mcp_output>$/);
    assert.deepEqual(second?.body.tools, first?.body.tools, 'the tool list changed within the turn');

    h.fake.enqueue({ text: 'second answer' });
    assert.equal(await say(h, 'and again'), 'second answer');
    assert.deepEqual(h.fake.requests[2]?.body.tools, first?.body.tools, 'the tool list changed between turns');
    assert.equal(systemPrompt(h.fake.requests[2]), systemPrompt(first));
    // /context: the next request by part, the MCP tools among the tools.
    const context = await say(h, '/context');
    assert.match(context, /^Next request: ~[\d,]+ of [\d,]+ tokens \([\d.]+% of the context\), estimated\n {2}system prompt +[\d,]+ +[\d.]+%\n {4}identity +[\d,]+/);
    assert.match(context, new RegExp(`^ {2}tools \\(${offered(first).length}\\) +[\\d,]+ +[\\d.]+%$`, 'm'));
    assert.match(context, /^ {4}mcp_everything_echo +[\d,]+ +[\d.]+%$/m);
    assert.match(context, /^ {4}mcp_servers +[\d,]+ +[\d.]+%$/m, 'the unavailable-server note is a layer');
    assert.match(context, /^ {2}history \(\d+ messages\) +[\d,]+ +[\d.]+%$/m);

    // After a restart the session goes on with the tools it was given (byte for byte), the servers connecting again.
    await h.restart();
    await connected(h, ['everything']);
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: 'after restart' } }] }, { text: 'third answer' });
    assert.equal(await say(h, 'after the restart'), 'third answer');
    assert.equal(JSON.stringify(h.fake.requests[3]?.body.tools), JSON.stringify(first?.body.tools));
    assert.match(toolResults(h.fake.requests[4]).at(-1) ?? '', /Echo: after restart/);
  } finally {
    await h.stop();
  }
});

test('a server\'s changed tool list (notifications/tools/list_changed) reaches the next session, not the running one; /status lists the server; /reload-mcp reads config.yaml again and reconnects; a reload that drops a server leaves its stored tools failing with a clear error', { timeout: 90_000 }, async () => {
  const h = await startHarness({
    config: { skills: { review: false }, memory: { review_interval: 1000 }, mcp_servers: { shifty: { command: process.execPath, args: [changing], approval: 'off' } } },
  });
  try {
    await connected(h, ['shifty']);
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_shifty_grow', arguments: {} }] }, { text: 'grew it' });
    assert.equal(await say(h, 'grow'), 'grew it');
    assert.deepEqual(offered(h.fake.requests[0]).filter((n) => n.startsWith('mcp_')), ['mcp_shifty_grow']);
    await until({ what: 'the new tool listed', timeoutMs: 10_000, check: () => h.mcp.status()[0]?.tools.includes('mcp_shifty_extra') === true });
    h.fake.enqueue({ text: 'same session' });
    await say(h, 'still here?');
    assert.deepEqual(offered(h.fake.requests[2]).filter((n) => n.startsWith('mcp_')), ['mcp_shifty_grow'], 'the running session got the new tool');

    await say(h, '/new');
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_shifty_extra', arguments: { name: 'owner' } }] }, { text: 'greeted' });
    assert.equal(await say(h, 'greet me'), 'greeted');
    const fresh = h.fake.requests.at(-2);
    assert.deepEqual(offered(fresh).filter((n) => n.startsWith('mcp_')), ['mcp_shifty_grow', 'mcp_shifty_extra']);
    assert.match(toolResults(h.fake.requests.at(-1)).at(-1) ?? '', /hello owner/);

    // /status names the server and its tools; /reload-mcp reads config.yaml again: a filter added there applies to
    // the next conversation, and the server is reconnected.
    assert.match(await say(h, '/status'), /\nMCP servers:\n• shifty: connected, 2 tools$/);
    const raw = readFileSync(h.profile.configPath, 'utf8');
    writeFileSync(h.profile.configPath, raw.replace('approval: off', 'approval: off\n    tools: { exclude: [grow] }'));
    assert.match(await say(h, '/reload-mcp'), /^MCP servers reloaded:\n• shifty: connected, 0 tools\nNew conversations \(\/new\) get their tools; this one keeps the tools it started with\.$/);
    h.fake.enqueue({ text: 'kept' });
    await say(h, 'same conversation after the reload');
    assert.deepEqual(offered(h.fake.requests.at(-1)).filter((n) => n.startsWith('mcp_')), ['mcp_shifty_grow', 'mcp_shifty_extra'], 'the running conversation lost its tools');
    await say(h, '/new');
    h.fake.enqueue({ text: 'filtered' });
    await say(h, 'a new one');
    // The reconnected server starts without `extra` again (a new process): only what the filter leaves of its tools.
    assert.deepEqual(offered(h.fake.requests.at(-1)).filter((n) => n.startsWith('mcp_')), []);

    // The server is taken out of config.yaml and the config reloaded (SIGHUP, `hermes gateway reload`): its process
    // ends, the session keeps its tool list, a call says why it fails.
    const silent = pino({ level: 'silent' }, { write: () => undefined });
    const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry: h.registry, redactor: new Redactor({ secrets: [] }), logger: silent, clock: h.clock, mcp: h.mcp });
    const edited = parse(readFileSync(h.profile.configPath, 'utf8')) as Record<string, unknown>;
    delete edited['mcp_servers'];
    writeFileSync(h.profile.configPath, stringify(edited));
    const outcome = await reloader.request();
    assert.ok(outcome.ok && outcome.live.includes('mcp_servers.shifty'), JSON.stringify(outcome));
    await until({ what: 'the server stopped', timeoutMs: 10_000, check: () => h.mcp.status().length === 0 });
    await say(h, '/resume 2');
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_shifty_extra', arguments: { name: 'again' } }] }, { text: 'could not' });
    assert.equal(await say(h, 'greet me again'), 'could not');
    assert.deepEqual(offered(h.fake.requests.at(-2)), offered(fresh));
    assert.match(toolResults(h.fake.requests.at(-1)).at(-1) ?? '', /^Error: MCP server "shifty" is no longer configured; its tools no longer work\.$/);
  } finally {
    await h.stop();
  }
});

/** The pid of the process whose environment holds `marker` (a stdio server the SDK spawned). */
function pidWithMarker(marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`MCP_TEST_MARKER=${marker}`)) return Number(entry);
    } catch {
      // gone, or not ours
    }
  }
  return undefined;
}

test('server-everything over Streamable HTTP on 127.0.0.1 through the gateway (echo, get-sum); a call past `timeout` fails alone; kill -9 of a stdio server mid-session: the next call says it is reconnecting, then it works again without a restart', { timeout: 90_000 }, async () => {
  const port = await closedPort();
  const server = spawn(process.execPath, [everything, 'streamableHttp'], { env: { PATH: process.env['PATH'] ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  server.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const marker = `m${process.pid}${Date.now()}`;
  const h = await startHarness({
    config: {
      skills: { review: false },
      memory: { review_interval: 1000 },
      mcp_servers: {
        everything: { url: `http://127.0.0.1:${port}/mcp`, tools: { include: ['echo', 'get-sum'] }, approval: 'off' },
        local: { command: process.execPath, args: [everything, 'stdio'], env: { MCP_TEST_MARKER: marker }, tools: { include: ['echo', 'trigger-long-running-operation'] }, approval: 'off', timeout: '1s' },
      },
    },
  });
  try {
    await until({ what: 'server-everything listening', timeoutMs: 20_000, check: () => /listening on port/.test(err), output: () => err });
    await connected(h, ['everything', 'local']);
    h.fake.enqueue(
      { toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: 'over http' } }, { name: 'mcp_everything_get_sum', arguments: { a: 40, b: 2 } }] },
      { text: 'done over http' },
    );
    assert.equal(await say(h, 'use the http server'), 'done over http');
    assert.ok(offered(h.fake.requests[0]).includes('mcp_everything_get_sum'));
    const [echoed, summed] = toolResults(h.fake.requests[1]);
    assert.match(echoed ?? '', /^<mcp_output server="everything" tool="echo">\nEcho: over http\n/);
    assert.match(summed ?? '', /\b42\b/);

    // A call the server does not answer within `timeout` fails alone: the next call in the same turn works.
    h.fake.enqueue(
      { toolCalls: [{ name: 'mcp_local_trigger_long_running_operation', arguments: { duration: 5, steps: 5 } }, { name: 'mcp_local_echo', arguments: { message: 'after the slow one' } }] },
      { text: 'one was slow' },
    );
    assert.equal(await say(h, 'do the slow thing'), 'one was slow');
    const [slow, quick] = toolResults(h.fake.requests.at(-1)).slice(-2);
    assert.match(slow ?? '', /^Error: MCP server "local" did not answer trigger-long-running-operation within 1s; the call was abandoned \(the server and its other tools are still there\)\.$/);
    assert.match(quick ?? '', /Echo: after the slow one/);

    const pid = pidWithMarker(marker);
    assert.ok(pid !== undefined, 'the stdio server\'s process was not found');
    process.kill(pid, 'SIGKILL');
    await until({ what: 'the gateway noticing the dead server', timeoutMs: 10_000, check: () => h.mcp.status().find((s) => s.name === 'local')?.state?.kind !== 'connected' });
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_local_echo', arguments: { message: 'anyone?' } }] }, { text: 'it is away' });
    assert.equal(await say(h, 'call the local one'), 'it is away');
    assert.match(toolResults(h.fake.requests.at(-1)).at(-1) ?? '', /^Error: MCP server "local" is (reconnecting|still starting)/);
    await connected(h, ['local']);
    assert.notEqual(pidWithMarker(marker), pid, 'no new server process');
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_local_echo', arguments: { message: 'back again' } }] }, { text: 'it is back' });
    assert.equal(await say(h, 'and now?'), 'it is back');
    assert.match(toolResults(h.fake.requests.at(-1)).at(-1) ?? '', /Echo: back again/);
  } finally {
    await h.stop();
    server.kill('SIGKILL');
  }
});

test('tool sets: a platform\'s platform_toolsets decide its built-in tools and which MCP servers its new sessions get; /tools shows them on or off', { timeout: 90_000 }, async () => {
  const injection = fileURLToPath(new URL('../fakes/mcp/injection-server.mjs', import.meta.url));
  const h = await startHarness({
    config: {
      skills: { review: false },
      memory: { review_interval: 1000 },
      toolsets: ['file'],
      platform_toolsets: { test: ['terminal', 'memory', 'mcp-shifty'] },
      mcp_servers: { shifty: { command: process.execPath, args: [changing], approval: 'off' }, tricky: { command: process.execPath, args: [injection], approval: 'off' } },
    },
  });
  try {
    await connected(h, ['shifty', 'tricky']);
    h.fake.enqueue({ text: 'lean' });
    assert.equal(await say(h, 'what can you do?'), 'lean');
    assert.deepEqual(offered(h.fake.requests[0]), ['terminal', 'memory', 'mcp_shifty_grow']);
    assert.doesNotMatch(systemPrompt(h.fake.requests[0]), /tricky/, 'a server the sets leave out was named in the prompt');
    const tools = await say(h, '/tools');
    assert.match(tools, /^Tool sets on test \(platform_toolsets\.test in config\.yaml\):\n✗ file: read_file, write_file, patch, search_files\n✓ terminal: terminal\n/);
    assert.match(tools, /^✓ mcp-shifty: connected, 1 tool$/m);
    assert.match(tools, /^✗ mcp-tricky: connected, 1 tool \(1 refused: see the log\)$/m);

    // A reload changes the platform's sets for the next turn (live, no restart); the conversation's MCP tools stay.
    const silent = pino({ level: 'silent' }, { write: () => undefined });
    const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry: h.registry, redactor: new Redactor({ secrets: [] }), logger: silent, clock: h.clock, mcp: h.mcp });
    const edited = parse(readFileSync(h.profile.configPath, 'utf8')) as Record<string, unknown>;
    edited['platform_toolsets'] = { test: ['file'] };
    writeFileSync(h.profile.configPath, stringify(edited));
    const outcome = await reloader.request();
    assert.ok(outcome.ok && outcome.live.includes('platform_toolsets.test') && outcome.restartNeeded.length === 0, JSON.stringify(outcome));
    h.fake.enqueue({ text: 'files now' });
    await say(h, 'and now?');
    assert.deepEqual(offered(h.fake.requests.at(-1)), ['read_file', 'write_file', 'patch', 'search_files', 'mcp_shifty_grow']);
  } finally {
    await h.stop();
  }
});

test('a server that leaks the token it was given: the profile\'s secret never reaches the model, in its tool\'s description or its result', { timeout: 60_000 }, async () => {
  const leaky = fileURLToPath(new URL('../fakes/mcp/leaky-server.mjs', import.meta.url));
  const secret = 'leak-me-not-0123456789abcdef';
  const h = await startHarness({
    env: { NOTES_TOKEN: secret },
    config: { skills: { review: false }, memory: { review_interval: 1000 }, mcp_servers: { leaky: { command: process.execPath, args: [leaky], env: { LEAKY_TOKEN: '${NOTES_TOKEN}' } } } },
  });
  try {
    await connected(h, ['leaky']);
    h.fake.enqueue({ toolCalls: [{ name: 'mcp_leaky_whoami', arguments: {} }] }, { text: 'checked' });
    assert.equal(await say(h, 'who am I?'), 'checked');
    const sent = JSON.stringify(h.fake.requests.map((request) => request.body));
    assert.ok(!sent.includes(secret), 'the secret reached the model');
    const tool = (h.fake.requests[0]?.body.tools ?? []).find((t) => (t as { function: { name: string } }).function.name === 'mcp_leaky_whoami') as { function: { description: string } } | undefined;
    assert.match(tool?.function.description ?? '', /^Says who you are \(authenticated with \*+\)\.$/);
    assert.match(toolResults(h.fake.requests[1]).at(-1) ?? '', /token \*+/);
  } finally {
    await h.stop();
  }
});
