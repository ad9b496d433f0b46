import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { describeFailure } from '../../../src/cli/output.js';
import { UserFacingError } from '../../../src/core/errors.js';
import { listenFailure } from '../../../src/gateway/http/server.js';
import { cli } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-cli-fail-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

function profileDir(name: string, config: string): string {
  const dir = path.join(home, 'profiles', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), config);
  return dir;
}

/** An errno-style error like the ones `listen` rejects with. */
function errno(code: string): Error {
  return Object.assign(new Error(`listen ${code}: something 127.0.0.1:1`), { code, syscall: 'listen' });
}

/** Occupies a free loopback port until closed. */
async function occupyPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { server, port: address.port };
}

describe('CLI failure messages', () => {
  test('gateway run on a port in use names the address and gateway.http.port, with a hint', async () => {
    const { server, port } = await occupyPort();
    try {
      profileDir('busyport', `gateway:\n  http:\n    port: ${port}\n`);
      const res = await cli({ argv: ['-p', 'busyport', 'gateway', 'run'], env });
      assert.equal(res.code, 1);
      assert.doesNotMatch(res.stderr, /unexpected failure/);
      assert.match(res.stderr, new RegExp(`^error: the HTTP server cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is already in use \\(gateway\\.http\\.port\\)`, 'm'));
      assert.match(res.stderr, /^hint: Stop the other process .*gateway\.http\.port .*0 picks any free one/m);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('listen failures: EADDRNOTAVAIL and EACCES name gateway.http.host, other errors still name both keys', () => {
    const notHere = listenFailure({ error: errno('EADDRNOTAVAIL'), host: '192.0.2.7', port: 8787 });
    assert.ok(notHere instanceof UserFacingError);
    assert.match(notHere.message, /cannot listen on 192\.0\.2\.7:8787: .*\(gateway\.http\.host\)/);
    assert.match(notHere.hint ?? '', /gateway\.http\.host/);
    const denied = listenFailure({ error: errno('EACCES'), host: '::1', port: 80 });
    assert.match(denied.message, /cannot listen on \[::1\]:80: permission denied \(gateway\.http\.host \/ gateway\.http\.port\)/);
    assert.match(denied.hint ?? '', /1024/);
    const other = listenFailure({ error: errno('EWHATEVER'), host: '127.0.0.1', port: 1 });
    assert.match(other.message, /gateway\.http\.host \/ gateway\.http\.port/);
    assert.ok(other.hint);
  });

  test('an unexpected failure is one line plus a hint to rerun with HERMES_DEBUG=1, and never promises a log entry', () => {
    const plain = describeFailure({ error: new Error('boom'), debug: false, scrub: (t) => t });
    assert.equal(plain.exitCode, 1);
    const lines = plain.text.split('\n');
    assert.equal(lines.length, 2);
    assert.equal(lines[0], 'error: unexpected failure: boom');
    assert.match(lines[1] ?? '', /^hint: rerun with HERMES_DEBUG=1 to print the stack/);
    assert.doesNotMatch(plain.text, /log/);
    const debug = describeFailure({ error: new Error('boom'), debug: true, scrub: (t) => t });
    assert.match(debug.text, /\n\s+at /);
  });

  test('config validate checks each platform block with its own schema and builds no adapter; a platform this build lacks is an unknown key', async () => {
    profileDir('tg', 'platforms:\n  telegram:\n    enabled: true\n    token: 123:abc\n  matrix:\n    enabled: true\n');
    const validate = await cli({ argv: ['-p', 'tg', 'config', 'validate'], env });
    assert.equal(validate.code, 0, validate.stderr);
    assert.match(validate.stdout, /valid .*platforms enabled: telegram\)/);
    assert.match(validate.stderr, /platforms\.matrix: unknown key ignored/);
    const broken = profileDir('tg2', 'platforms:\n  telegram:\n    enabled: true\n    mode: carrier-pigeon\n');
    const refused = await cli({ argv: ['-p', 'tg2', 'config', 'validate'], env });
    assert.equal(refused.code, 78);
    assert.ok(refused.stderr.includes(`${path.join(broken, 'config.yaml')}: platforms.telegram.mode`), refused.stderr);
  });
});
