import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { nodeArgsFor } from '../../helpers/entry.js';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A fresh HERMES_HOME with a "work" profile; `config` and `dotenv` for the default profile. */
function home(params: { config?: string; dotenv?: string }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-strict-'));
  homes.push(dir);
  mkdirSync(path.join(dir, 'profiles', 'work'), { recursive: true });
  if (params.config !== undefined) writeFileSync(path.join(dir, 'config.yaml'), params.config);
  if (params.dotenv !== undefined) writeFileSync(path.join(dir, '.env'), params.dotenv);
  return dir;
}

/** Runs the real CLI as a process. */
function hermes(params: { home: string; args: readonly string[] }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgsFor(path.join(repo, 'src/cli/main.ts')), ...params.args],
      { cwd: repo, env: { ...process.env, HERMES_HOME: params.home, HOME: params.home, HERMES_PROFILE: '' } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

test('hermes config validate on a file with 3 problems lists all 3 (exit 78)', async () => {
  const dir = home({ config: 'model:\n  base_url: 127.0.0.1:18701/v1\n  max_retries: -1\ngateway:\n  busy_policy: bogus\n' });
  const result = await hermes({ home: dir, args: ['config', 'validate'] });
  assert.equal(result.code, 78);
  assert.match(result.stderr, /^error: 3 problems:\n/);
  const problems = result.stderr.split('\n').filter((line) => line.startsWith('  - '));
  assert.equal(problems.length, 3, result.stderr);
  assert.match(problems[0] ?? '', /model\.base_url: expected an http:\/\/ or https:\/\/ URL: this one needs http:\/\/ or https:\/\/ in front/);
  assert.match(problems[1] ?? '', /model\.max_retries/);
  assert.match(problems[2] ?? '', /gateway\.busy_policy/);
  assert.doesNotMatch(result.stderr, /more problem|\n\s+at /);
});

test('a malformed .env line is a warning with its file and line number in config validate (still valid) and doctor', async () => {
  // The model endpoint is a loopback port nothing listens on (doctor checks it).
  const dir = home({ dotenv: 'A=1\nnot an assignment\n', config: 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: m\n' });
  const result = await hermes({ home: dir, args: ['config', 'validate'] });
  assert.equal(result.code, 0);
  assert.ok(result.stderr.includes(`warning: ${path.join(dir, '.env')}:2: not a KEY=value line; ignored`), result.stderr);
  const doctor = await hermes({ home: dir, args: ['doctor'] });
  assert.ok(doctor.stdout.includes(`! config: ${path.join(dir, '.env')}:2: not a KEY=value line; ignored`), doctor.stdout);
});

test('numeric options are checked: logs -n abc and sessions list -n 0 are usage errors (exit 64)', async () => {
  const dir = home({});
  const logs = await hermes({ home: dir, args: ['logs', '-n', 'abc'] });
  assert.equal(logs.code, 64);
  assert.match(logs.stderr, /^error: -n: expected a whole number from 1 to 100000, found "abc"/);
  const sessions = await hermes({ home: dir, args: ['sessions', 'list', '-n', '0'] });
  assert.equal(sessions.code, 64);
  assert.match(sessions.stderr, /found "0"/);
});

test('-p with an unknown profile is an error listing the profiles, for config validate and chat; profile create still makes it', async () => {
  const dir = home({});
  for (const args of [['-p', 'nosuch', 'config', 'validate'], ['-p', 'nosuch', 'chat'], ['-p', 'nosuch', 'doctor']]) {
    const result = await hermes({ home: dir, args });
    assert.equal(result.code, 66, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, /^error: profile "nosuch" does not exist; the profiles are: default, work\n/);
    assert.doesNotMatch(result.stdout, /valid/);
  }
  const created = await hermes({ home: dir, args: ['-p', 'nosuch', 'profile', 'create', 'nosuch'] });
  assert.equal(created.code, 0, created.stderr);
  const now = await hermes({ home: dir, args: ['-p', 'nosuch', 'config', 'validate'] });
  assert.equal(now.code, 0, now.stderr);
});

test('hermes -p nosuch status: the typo is an error listing the profiles (exit 66), not silently every profile; -p work status shows them all as before', async () => {
  const dir = home({});
  const typo = await hermes({ home: dir, args: ['-p', 'nosuch', 'status'] });
  assert.equal(typo.code, 66, typo.stdout + typo.stderr);
  assert.match(typo.stderr, /^error: profile "nosuch" does not exist; the profiles are: default, work\n/);
  assert.equal(typo.stdout, '');
  const named = await hermes({ home: dir, args: ['-p', 'work', 'status'] });
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.stdout, (await hermes({ home: dir, args: ['status'] })).stdout);
  assert.match(named.stdout, /^default: stopped/m);
});
