import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { ensureProfileDirs, resolveProfile } from '../../../src/home/index.js';
import { cli } from '../../helpers/cli.js';
import { closedPort } from '../../helpers/ports.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-inherit-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A HERMES_HOME whose default profile has a model set up, with its key in .env next to a platform token. */
function homeWithModel(name: string): { home: string; env: Record<string, string>; dir: (profile: string) => string } {
  const home = path.join(root, name);
  mkdirSync(home, { recursive: true });
  writeFileSync(
    path.join(home, 'config.yaml'),
    '# the default profile\nmodel:\n  # my local server\n  base_url: http://127.0.0.1:18701/v1\n  name: local-model\n  api_key: ${OPENAI_API_KEY}\n  temperature: 0.3\n  fallbacks:\n    - name: backup\n      api_key: ${BACKUP_KEY}\nplatforms:\n  telegram:\n    enabled: true\n    token: ${TELEGRAM_BOT_TOKEN}\n',
  );
  writeFileSync(path.join(home, '.env'), 'OPENAI_API_KEY=sk-default-key-1\nBACKUP_KEY=sk-backup-key-2\nTELEGRAM_BOT_TOKEN=1:tg-token\n', { mode: 0o600 });
  return { home, env: { HERMES_HOME: home, HOME: home }, dir: (profile) => path.join(home, 'profiles', profile) };
}

test('profile create: the new profile inherits the default profile\'s model section, not its key', async () => {
  const { env, dir } = homeWithModel('plain');
  const res = await cli({ argv: ['profile', 'create', 'work'], env });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /model: as in profile "default" \(its key not copied: --with-secrets copies it/);
  const text = readFileSync(path.join(dir('work'), 'config.yaml'), 'utf8');
  assert.match(text, /# my local server/, 'the comments of the model section come along');
  const tree = parse(text) as { model: Record<string, unknown>; platforms?: { telegram?: Record<string, unknown> } };
  assert.deepEqual(tree.model, { base_url: 'http://127.0.0.1:18701/v1', name: 'local-model', temperature: 0.3, fallbacks: [{ name: 'backup' }] });
  assert.notEqual(tree.platforms?.telegram?.['enabled'], true, 'platforms are not inherited');
  const dotEnv = readFileSync(path.join(dir('work'), '.env'), 'utf8');
  assert.ok(!dotEnv.includes('sk-default-key-1') && !dotEnv.includes('sk-backup-key-2') && !dotEnv.includes('tg-token'));
  const show = await cli({ argv: ['-p', 'work', 'config', 'show'], env });
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /local-model/);
});

test('profile create --with-secrets: the model\'s keys and their .env lines come along, nothing else', async () => {
  const { env, dir } = homeWithModel('secrets');
  const res = await cli({ argv: ['profile', 'create', 'play', '--with-secrets'], env });
  assert.equal(res.code, 0, res.stderr);
  const tree = parse(readFileSync(path.join(dir('play'), 'config.yaml'), 'utf8')) as { model: Record<string, unknown> };
  assert.equal(tree.model['api_key'], '${OPENAI_API_KEY}');
  const envPath = path.join(dir('play'), '.env');
  const dotEnv = readFileSync(envPath, 'utf8');
  assert.match(dotEnv, /^OPENAI_API_KEY=sk-default-key-1$/m);
  assert.match(dotEnv, /^BACKUP_KEY=sk-backup-key-2$/m);
  assert.ok(!dotEnv.includes('tg-token'), 'a platform token is not a model key');
  assert.equal(statSync(envPath).mode & 0o777, 0o600);
  assert.equal((await cli({ argv: ['-p', 'play', 'config', 'validate'], env })).code, 0);
});

test('profile create: a model setting given as ${VAR} (not a secret) comes with its .env line, so the new profile loads; the key does not', async () => {
  const { home, env, dir } = homeWithModel('by-variable');
  writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: ${MODEL_URL}\n  name: ${MODEL_NAME:-local-model}\n  api_key: ${OPENAI_API_KEY}\n');
  writeFileSync(path.join(home, '.env'), 'MODEL_URL=http://127.0.0.1:18701/v1\nOPENAI_API_KEY=sk-default-key-1\nTELEGRAM_BOT_TOKEN=1:tg-token\n', { mode: 0o600 });
  const res = await cli({ argv: ['profile', 'create', 'work'], env });
  assert.equal(res.code, 0, res.stderr);
  const dotEnv = readFileSync(path.join(dir('work'), '.env'), 'utf8');
  assert.match(dotEnv, /^MODEL_URL=http:\/\/127\.0\.0\.1:18701\/v1$/m);
  assert.ok(!dotEnv.includes('sk-default-key-1') && !dotEnv.includes('tg-token'), dotEnv);
  const valid = await cli({ argv: ['-p', 'work', 'config', 'validate'], env });
  assert.equal(valid.code, 0, valid.stdout + valid.stderr);
});

test('a default profile never used gets a config.yaml to edit (the template, port 8787); one in use is left alone', () => {
  const home = path.join(root, 'fresh');
  const profile = resolveProfile({ hermesHome: home });
  ensureProfileDirs({ profile });
  const text = readFileSync(profile.configPath, 'utf8');
  assert.match(text, /^# hermes profile config/);
  assert.equal((parse(text) as { gateway: { http: { port: number } } }).gateway.http.port, 8787);
  writeFileSync(profile.configPath, 'model:\n  name: mine\n');
  ensureProfileDirs({ profile });
  assert.equal(readFileSync(profile.configPath, 'utf8'), 'model:\n  name: mine\n');
  const named = resolveProfile({ hermesHome: home, name: 'other' });
  ensureProfileDirs({ profile: named });
  assert.equal(existsSync(named.configPath), false, 'named profiles get theirs from `profile create`');
});

test('`hermes setup` on a fresh HERMES_HOME starts from that template: its comments stay', async () => {
  const home = path.join(root, 'setup-fresh');
  const port = await closedPort();
  const res = await cli({ argv: ['setup', 'model', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--yes'], env: { HERMES_HOME: home, HOME: home } });
  assert.equal(res.code, 78, 'nothing listens there');
  assert.match(res.stderr, new RegExp(`error: cannot connect to 127\\.0\\.0\\.1:${port} \\(connection refused: nothing listens there\\); nothing was written`));
  assert.match(readFileSync(path.join(home, 'config.yaml'), 'utf8'), /^# hermes profile config[\s\S]*model:\n\s+# base_url/, 'the seeded template is untouched');
});
