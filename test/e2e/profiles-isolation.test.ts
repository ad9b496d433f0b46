import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { acquirePidLock } from '../../src/home/pid-lock.js';
import { resolveProfile } from '../../src/home/profile.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { cli } from '../helpers/cli.js';
import { startCliGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { closedPort } from '../helpers/ports.js';

/** Every file below `dir` (logs, databases with their WAL, caches...). */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesBelow(full) : [full];
  });
}

/** Text of the messages stored in a profile's state.db, with their session keys. */
function stored(params: { dbPath: string }): { keys: string[]; contents: string[] } {
  const db = new Database(params.dbPath, { readonly: true });
  try {
    const keys = db.prepare('SELECT key FROM sessions').all().map((row) => String((row as { key: unknown }).key));
    const contents = db.prepare('SELECT content FROM messages').all().map((row) => String((row as { content: unknown }).content));
    return { keys, contents };
  } finally {
    db.close();
  }
}

test('work and personal run side by side, each with its own bot, model, SOUL.md, port, database and secrets', { timeout: 90_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-isolation-'));
  const env = { HERMES_HOME: home, HOME: home };
  const canary = `sk-canary-${randomBytes(12).toString('hex')}`;
  const profiles = {
    work: { telegram: new FakeTelegram({ token: '111111:WORK-bot-token-isolation' }), model: new FakeOpenAI(), port: await closedPort(), user: 501 },
    personal: { telegram: new FakeTelegram({ token: '222222:PERSONAL-bot-token-isolation' }), model: new FakeOpenAI(), port: await closedPort(), user: 502 },
  };
  const running: GatewayProcess[] = [];
  try {
    for (const [name, p] of Object.entries(profiles)) {
      await Promise.all([p.telegram.start(), p.model.start()]);
      p.model.setResponder(() => ({ text: `${name} model here` }));
      const res = await cli({ argv: ['profile', 'create', name], env });
      assert.equal(res.code, 0, res.stderr);
      const profile = resolveProfile({ hermesHome: home, name });
      writeFileSync(profile.soulPath, `You are the ${name.toUpperCase()}-SOUL assistant.\n`);
      writeFileSync(
        profile.configPath,
        stringify({
          model: { base_url: p.model.baseURL, name: `${name}-model`, api_key: name === 'work' ? '${WORK_CANARY}' : 'sk-personal-plain-key' },
          gateway: { http: { port: p.port } },
          platforms: { telegram: { enabled: true, token: p.telegram.token, api_root: p.telegram.apiRoot, allowed_users: [String(p.user)], merge_window: '0s' } },
        }),
      );
      if (name === 'work') writeFileSync(profile.envPath, `WORK_CANARY=${canary}\n`, { mode: 0o600 });
    }
    const work = startCliGateway({ home, profile: 'work' });
    const personal = startCliGateway({ home, profile: 'personal' });
    running.push(work, personal);
    for (const [name, p] of Object.entries(profiles)) {
      const child = name === 'work' ? work : personal;
      await p.telegram.waitFor({ predicate: (f) => f.callsTo('getUpdates').length > 0, timeoutMs: 30_000 }).catch((error: unknown) => {
        throw new Error(`${name}: ${String(error)}\n${child.output()}`);
      });
      p.telegram.pushMessage({ chat: { id: p.user, type: 'private' }, from: { id: p.user, first_name: name }, text: `hello ${name}` });
    }
    for (const [name, p] of Object.entries(profiles)) {
      await p.telegram.waitFor({ predicate: (f) => f.chatMessages(p.user).some((m) => m.shown === `${name} model here`), timeoutMs: 15_000 });
      const request = p.model.requests[0]?.body;
      assert.equal(request?.model, `${name}-model`);
      const system = String(request?.messages?.[0]?.['content'] ?? '');
      assert.match(system, new RegExp(`${name.toUpperCase()}-SOUL`));
      assert.doesNotMatch(system, new RegExp(`${name === 'work' ? 'PERSONAL' : 'WORK'}-SOUL`));
      assert.equal(p.model.requests[0]?.headers['authorization'], `Bearer ${name === 'work' ? canary : 'sk-personal-plain-key'}`);
    }

    // A second gateway on the same profile refuses, naming the one that runs.
    const second = startCliGateway({ home, profile: 'work' });
    assert.equal(await second.exited, 75, second.output());
    assert.match(second.output(), new RegExp(`a gateway for profile "work" is already running \\(pid ${work.proc.pid}\\)`));

    const status = await cli({ argv: ['status'], env });
    assert.match(status.stdout, /^work: running \(pid \d+, up \d+s\)/m, status.stdout);
    assert.match(status.stdout, /^personal: running \(pid \d+, up \d+s\)/m, status.stdout);

    const workEnviron = readFileSync(`/proc/${work.proc.pid}/environ`, 'utf8');
    const personalEnviron = readFileSync(`/proc/${personal.proc.pid}/environ`, 'utf8');
    assert.ok(!personalEnviron.includes(canary), "the canary is in personal's process environment");
    assert.ok(!workEnviron.includes(canary), 'the .env was copied into process.env');

    for (const child of running) child.proc.kill('SIGTERM');
    assert.deepEqual(await Promise.all(running.map((c) => c.exited)), [0, 0], `${work.output()}\n${personal.output()}`);

    for (const name of ['work', 'personal'] as const) {
      const other = name === 'work' ? 'personal' : 'work';
      const db = stored({ dbPath: resolveProfile({ hermesHome: home, name }).dbPath });
      assert.ok(db.keys.length > 0 && db.keys.every((key) => key.startsWith(`${name}:`)), `${name} sessions: ${db.keys.join(', ')}`);
      assert.ok(db.contents.includes(`hello ${name}`));
      assert.ok(!db.contents.some((text) => text.includes(`hello ${other}`) || text.includes(`${other} model here`)), `${name} holds ${other}'s messages`);
    }
    const personalDir = resolveProfile({ hermesHome: home, name: 'personal' }).dir;
    for (const file of filesBelow(personalDir)) assert.ok(!readFileSync(file).includes(canary), `the canary is in ${file}`);
    const workLogs = resolveProfile({ hermesHome: home, name: 'work' }).logsDir;
    for (const file of filesBelow(workLogs)) assert.ok(!readFileSync(file).includes(canary), `the canary is in ${file}`);
    assert.ok(filesBelow(workLogs).length > 0, 'work wrote a log');
  } finally {
    for (const child of running) child.proc.kill('SIGKILL');
    for (const p of Object.values(profiles)) await Promise.all([p.telegram.close(), p.model.close()]);
    rmSync(home, { recursive: true, force: true });
  }
});

test('a pid lock left by a dead gateway is taken over', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-stale-'));
  try {
    const profile = resolveProfile({ hermesHome: home, name: 'work' });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(profile.dir, { recursive: true });
    writeFileSync(profile.pidPath, `${dead.stdout}\n`);
    const lock = acquirePidLock({ profile });
    assert.equal(readFileSync(profile.pidPath, 'utf8').split('\n')[0], String(process.pid));
    lock.release();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
