import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpServerSchema, type McpServerConfig } from '../../src/config/mcp-schema.js';
import { systemClock } from '../../src/core/clock.js';
import { McpServerConnection, McpUnavailableError, type McpConnect } from '../../src/mcp/connection.js';
import { connectMcp } from '../../src/mcp/transport.js';
import { until } from '../helpers/gateway-process.js';
import { closedPort } from '../helpers/ports.js';
import { capturingLogger } from '../helpers/review.js';

/** The real server-everything from npm, run with this node over stdio. */
const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

function config(params: Record<string, unknown>): McpServerConfig {
  return mcpServerSchema.parse(params);
}

/** A connection to server-everything over stdio, with the transports it opened (to kill the child). */
function everythingConnection(params: { extra?: Record<string, unknown> } = {}): { connection: McpServerConnection; transports: Transport[]; lines: Record<string, unknown>[] } {
  const transports: Transport[] = [];
  const connect: McpConnect = async (p) => {
    const opened = await connectMcp(p);
    transports.push(opened.transport);
    return opened;
  };
  const { logger, lines } = capturingLogger();
  const connection = new McpServerConnection({
    name: 'everything',
    config: config({ command: process.execPath, args: [everything, 'stdio'], ...params.extra }),
    clock: systemClock,
    logger,
    connect,
    backoff: { baseMs: 50, maxMs: 200 },
  });
  return { connection, transports, lines };
}

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((part) => part.text ?? '').join('\n');
}

test('server-everything over stdio: its tools are listed, echo and get-sum answer, and its child gets no gateway secret', { timeout: 60_000 }, async () => {
  process.env['HERMES_TEST_GATEWAY_SECRET'] = 'sk-gateway-secret-not-for-children';
  const { connection } = everythingConnection({ extra: { env: { EVERYTHING_MARK: 'configured' } } });
  connection.start();
  try {
    await until({ what: 'the connection', timeoutMs: 30_000, check: () => connection.state().kind === 'connected' });
    const names = connection.tools().map((tool) => tool.name);
    for (const name of ['echo', 'get-sum', 'get-env']) assert.ok(names.includes(name), `${name} is not among ${names.join(', ')}`);
    assert.equal(connection.tools().find((tool) => tool.name === 'get-env')?.readOnly, true);
    const signal = new AbortController().signal;
    assert.match(text(await connection.request({ kind: 'tool', tool: 'echo', args: { message: 'hello mcp' }, signal })), /hello mcp/);
    assert.match(text(await connection.request({ kind: 'tool', tool: 'get-sum', args: { a: 2, b: 40 }, signal })), /42/);
    const env = text(await connection.request({ kind: 'tool', tool: 'get-env', args: {}, signal }));
    assert.match(env, /EVERYTHING_MARK/);
    assert.doesNotMatch(env, /sk-gateway-secret-not-for-children/);
  } finally {
    delete process.env['HERMES_TEST_GATEWAY_SECRET'];
    await connection.close();
  }
  assert.equal(connection.state().kind, 'stopped');
});

test('kill -9 of the stdio server: calls say it is reconnecting, then work again without a restart; a call past `timeout` fails alone', { timeout: 60_000 }, async () => {
  const { connection, transports, lines } = everythingConnection({ extra: { timeout: '1s' } });
  connection.start();
  const signal = new AbortController().signal;
  try {
    await until({ what: 'the connection', timeoutMs: 30_000, check: () => connection.state().kind === 'connected' });
    // A call that outlasts `timeout` fails; the server stays and the next call works.
    await assert.rejects(connection.request({ kind: 'tool', tool: 'trigger-long-running-operation', args: { duration: 5, steps: 5 }, signal }), /timed out|timeout/i);
    assert.equal(connection.state().kind, 'connected');
    assert.match(text(await connection.request({ kind: 'tool', tool: 'echo', args: { message: 'still here' }, signal })), /still here/);

    const pid = (transports[0] as StdioClientTransport).pid;
    assert.ok(pid !== null);
    process.kill(pid, 'SIGKILL');
    await until({ what: 'the reconnecting state', timeoutMs: 10_000, check: () => connection.state().kind !== 'connected' });
    await assert.rejects(connection.request({ kind: 'tool', tool: 'echo', args: { message: 'x' }, signal }), (error: unknown) => error instanceof McpUnavailableError && /everything/.test(error.message));
    await until({ what: 'the reconnect', timeoutMs: 30_000, check: () => connection.state().kind === 'connected' });
    assert.match(text(await connection.request({ kind: 'tool', tool: 'echo', args: { message: 'back again' }, signal })), /back again/);
    assert.equal(transports.length, 2);
    assert.ok(!lines.some((line) => /changed tool list could not be read/.test(String(line['msg']))), JSON.stringify(lines));
    assert.ok(lines.some((line) => /^MCP server everything is unavailable: the connection closed.*; reconnecting$/.test(String(line['msg']))), JSON.stringify(lines));
  } finally {
    await connection.close();
  }
});

test('a server that fails to start: one warning with its cause (not one per attempt), and it is tried again with backoff', { timeout: 30_000 }, async () => {
  const { logger, lines } = capturingLogger();
  const connection = new McpServerConnection({
    name: 'broken',
    config: config({ command: process.execPath, args: ['-e', 'console.error("no database at /nowhere"); process.exit(3)'] }),
    clock: systemClock,
    logger,
    connect: connectMcp,
    backoff: { baseMs: 50, maxMs: 100 },
  });
  connection.start();
  try {
    await until({ what: 'three failed attempts', timeoutMs: 20_000, check: () => { const state = connection.state(); return state.kind === 'reconnecting' && state.attempt >= 3; } });
    // One warning with the cause, not one per attempt.
    const warned = lines.filter((line) => /broken is unavailable/.test(String(line['msg'])));
    assert.equal(warned.length, 1, JSON.stringify(warned));
    assert.match(String(warned[0]?.['msg']), /no database at \/nowhere/);
  } finally {
    await connection.close();
  }
});

/** server-everything serving Streamable HTTP on a free loopback port; resolves once it listens. */
async function everythingOverHttp(params: { port: number }): Promise<ChildProcess> {
  const child = spawn(process.execPath, [everything, 'streamableHttp'], { env: { PATH: process.env['PATH'] ?? '', PORT: String(params.port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  await until({ what: 'server-everything listening', timeoutMs: 20_000, check: () => /listening on port/.test(err), output: () => err });
  return child;
}

test('server-everything over Streamable HTTP on 127.0.0.1: listed and called; when it goes away a call says reconnecting, and it comes back', { timeout: 60_000 }, async () => {
  const port = await closedPort();
  let server = await everythingOverHttp({ port });
  const { logger, lines } = capturingLogger();
  const connection = new McpServerConnection({
    name: 'everything_http',
    config: config({ url: `http://127.0.0.1:${port}/mcp`, headers: { 'X-Probe': 'yes' } }),
    clock: systemClock,
    logger,
    connect: connectMcp,
    backoff: { baseMs: 50, maxMs: 200 },
  });
  connection.start();
  const signal = new AbortController().signal;
  try {
    await until({ what: 'the connection', timeoutMs: 30_000, check: () => connection.state().kind === 'connected' });
    assert.ok(connection.tools().some((tool) => tool.name === 'get-sum'));
    assert.match(text(await connection.request({ kind: 'tool', tool: 'get-sum', args: { a: 1, b: 2 }, signal })), /3/);
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    await assert.rejects(connection.request({ kind: 'tool', tool: 'echo', args: { message: 'x' }, signal }), (error: unknown) => error instanceof McpUnavailableError && /reconnecting/.test(error.message));
    server = await everythingOverHttp({ port });
    await until({ what: 'the reconnect', timeoutMs: 30_000, check: () => connection.state().kind === 'connected' });
    assert.match(text(await connection.request({ kind: 'tool', tool: 'echo', args: { message: 'over http again' }, signal })), /over http again/);
  } finally {
    await connection.close();
    server.kill('SIGKILL');
  }
});
