import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { cli } from '../helpers/cli.js';
import { startCliGateway, until } from '../helpers/gateway-process.js';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

test('hermes mcp list / mcp test / doctor / status: each configured server, how it is reached, whether it works and why not; with the gateway running, its state and tools', { timeout: 120_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-mcp-cli-'));
  const model = new FakeOpenAI();
  await model.start();
  const env = { HERMES_HOME: home, HOME: home, PATH: process.env['PATH'] ?? '' };
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), 'NOTES_TOKEN=tok-mcp-secret-123456\n', { mode: 0o600 });
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: 'sk-mcp-cli', name: 'fake-model' },
      gateway: { http: { port: 0 } },
      mcp_servers: {
        everything: { command: process.execPath, args: [everything, 'stdio'], tools: { include: ['echo', 'get-sum'] }, env: { NOTES_TOKEN: '${NOTES_TOKEN}' } },
        broken: { command: process.execPath, args: ['-e', 'console.error("cannot open /var/db/notes: permission denied"); process.exit(3)', '--', '--token=${NOTES_TOKEN}'] },
        off: { url: 'http://127.0.0.1:9/mcp', enabled: false },
      },
    }),
  );
  const run = (...argv: string[]): ReturnType<typeof cli> => cli({ argv: ['-p', 'work', ...argv], env });
  let gateway: ReturnType<typeof startCliGateway> | undefined;
  try {
    const listed = await run('mcp', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^everything \(stdio: .*server-everything.* stdio\)\n {2}approval: manual; timeout 120s; include echo, get-sum\n {2}state: unknown \(the gateway is not running\); `hermes mcp test everything` tries it now$/m);
    assert.match(listed.stdout, /^off \(http: http:\/\/127\.0\.0\.1:9\/mcp\)\n[^\n]*\n {2}disabled \(enabled: false\)$/m);
    assert.ok(!listed.stdout.includes('tok-mcp-secret-123456'), 'a secret in the arguments was printed');

    const good = await run('mcp', 'test', 'everything');
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /\n {2}✓ started in \d+ ms[^\n]*\n {2}✓ 2 tools offered \(\d+ left out by tools.include\/exclude\): echo, get-sum\n {2}✓ its resources and prompts are offered too: list_resources, read_resource, list_prompts, get_prompt\n {2}✓ ping answered in \d+ ms\n$/);
    const bad = await run('mcp', 'test', 'broken');
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /✗ .*; its last line on stderr: cannot open \/var\/db\/notes: permission denied\n$/);
    const unknown = await run('mcp', 'test', 'nope');
    assert.equal(unknown.code, 66);
    assert.match(unknown.stderr, /has no MCP server named "nope"[\s\S]*Its servers: everything, broken, off\./);

    const doctor = await run('doctor');
    assert.equal(doctor.code, 1, 'a server that does not start is a problem to fix');
    assert.match(doctor.stdout, /^✓ mcp everything: 2 tools offered, answers ping$/m);
    assert.match(doctor.stdout, /^✗ mcp broken: .*permission denied\n {4}fix: check mcp_servers\.broken\.command and args in config\.yaml \(is the program installed\?\); `hermes -p work mcp test broken` shows each step$/m);
    assert.match(doctor.stdout, /^! mcp off: disabled \(enabled: false\): its tools are not offered$/m);

    gateway = startCliGateway({ home, profile: 'work' });
    const started = gateway;
    const status = async (): Promise<string> => (await run('status')).stdout;
    // The broken server cycles through connecting and reconnecting (with backoff): wait for one report with both.
    let shown = '';
    await until({
      what: 'the gateway reports everything connected and broken reconnecting',
      timeoutMs: 60_000,
      output: () => `${shown}\n${started.output()}`,
      check: async () => {
        shown = await status();
        return /mcp everything: connected/.test(shown) && /mcp broken: reconnecting/.test(shown);
      },
    });
    assert.match(shown, /^work: running \(pid \d+, up [^)]*\), degraded$/m);
    assert.match(shown, /^ {2}mcp everything: connected, 6 tools$/m);
    assert.match(shown, /^ {2}mcp broken: reconnecting — .*permission denied\); (next try in \d+s|trying again now)$/m);
    assert.match(shown, /^ {2}mcp off: disabled \(enabled: false\)$/m);
    assert.ok(!shown.includes('tok-mcp-secret-123456'));
    const running = await run('mcp', 'list');
    assert.match(running.stdout, /^everything [^\n]*\n[^\n]*\n {2}connected, 6 tools\n {2}tools: mcp_everything_echo, mcp_everything_get_sum, mcp_everything_list_resources, mcp_everything_read_resource, mcp_everything_list_prompts, mcp_everything_get_prompt$/m);
    assert.match(running.stdout, /^broken [^\n]*\n[^\n]*\n {2}(reconnecting — |connecting$)/m);
  } finally {
    if (gateway !== undefined) {
      gateway.proc.kill('SIGTERM');
      await gateway.exited;
    }
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
