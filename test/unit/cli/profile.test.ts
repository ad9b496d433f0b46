import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { cli } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-profiles-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };
const dir = (name: string): string => path.join(home, 'profiles', name);

test('profile create makes the layout from the templates, with a private .env', async () => {
  const res = await cli({ argv: ['profile', 'create', 'work', '--description', 'day job'], env });
  assert.equal(res.code, 0, res.stderr);
  for (const sub of ['config.yaml', 'SOUL.md', '.env', 'memories', 'skills', 'workspace', 'logs', 'cache']) assert.ok(existsSync(path.join(dir('work'), sub)), sub);
  assert.equal(statSync(path.join(dir('work'), '.env')).mode & 0o777, 0o600);
  assert.match(readFileSync(path.join(dir('work'), 'SOUL.md'), 'utf8'), /You are Hermes/);
  const validate = await cli({ argv: ['-p', 'work', 'config', 'validate'], env });
  assert.equal(validate.code, 0, validate.stderr);
  const again = await cli({ argv: ['profile', 'create', 'work'], env });
  assert.notEqual(again.code, 0);
  assert.match(again.stderr, /already exists/);
  const reserved = await cli({ argv: ['profile', 'create', 'default'], env });
  assert.match(reserved.stderr, /reserved name/);
  const bad = await cli({ argv: ['profile', 'create', 'Bad Name'], env });
  assert.match(bad.stderr, /invalid profile name/);
});

test('a clone copies config, SOUL.md, memories and skills, never tokens, allowlists, secrets or history', async () => {
  writeFileSync(
    path.join(dir('work'), 'config.yaml'),
    [
      'model:\n  name: work-model\n  api_key: sk-INLINE-MODEL-KEY\n',
      'platforms:\n  telegram:\n    enabled: true\n    token: 123:WORK-TOKEN\n    allowed_users: ["@boss"]\n    group_interval: 5s\n',
      '    webhook:\n      url: https://work.example/tg\n      secret_token: WORK-WEBHOOK-SECRET\n',
      '  slack:\n    bot_token: xoxb-WORK\n    signing_secret: WORK-SIGNING\n    allowed_bots: [B-WORK-BOT]\n    reply_in_thread: false\n',
      '  email:\n    imap_host: imap.work\n    username: me@work\n    password: IMAP-PASS\n    smtp_password: SMTP-PASS\n    smtp_username: smtp@work\n    address: bot@work\n',
      '  sms:\n    account_sid: AC-WORK\n    auth_token: TWILIO-AUTH\n    from_number: "+15550001111"\n    webhook_url: https://work.example/sms\n',
      '  discord:\n    allowed_roles: ["111"]\n    allowed_channels: ["222"]\n    free_response_channels: ["333"]\n',
    ].join(''),
  );
  writeFileSync(path.join(dir('work'), 'SOUL.md'), 'You are the work assistant.');
  writeFileSync(path.join(dir('work'), '.env'), 'WORK_SECRET=canary-work-123\n');
  writeFileSync(path.join(dir('work'), 'memories', 'm.md'), 'remember this');
  mkdirSync(path.join(dir('work'), 'skills', 'deploy'), { recursive: true });
  writeFileSync(path.join(dir('work'), 'skills', 'deploy', 'SKILL.md'), 'how to deploy');
  writeFileSync(path.join(dir('work'), 'state.db'), 'not really a db');
  const res = await cli({ argv: ['profile', 'create', 'personal', '--clone-from', 'work'], env });
  assert.equal(res.code, 0, res.stderr);
  const config = readFileSync(path.join(dir('personal'), 'config.yaml'), 'utf8');
  assert.match(config, /work-model/);
  assert.match(config, /group_interval: 5s/);
  assert.doesNotMatch(config, /WORK-TOKEN|boss/);
  for (const secret of ['sk-INLINE-MODEL-KEY', 'WORK-WEBHOOK-SECRET', 'work.example', 'xoxb-WORK', 'WORK-SIGNING', 'B-WORK-BOT', 'IMAP-PASS', 'SMTP-PASS', '@work', 'AC-WORK', 'TWILIO-AUTH', '15550001111', '111', '222', '333']) {
    assert.ok(!config.includes(secret), `the clone's config.yaml still has ${secret}:\n${config}`);
  }
  assert.match(config, /reply_in_thread: false/);
  assert.match(config, /imap_host: imap\.work/);
  assert.equal(config.match(/enabled: false/g)?.length, 5, 'every platform is disabled');
  assert.equal(statSync(path.join(dir('personal'), '.env')).mode & 0o777, 0o600);
  assert.equal(readFileSync(path.join(dir('personal'), 'SOUL.md'), 'utf8'), 'You are the work assistant.');
  assert.equal(readFileSync(path.join(dir('personal'), 'memories', 'm.md'), 'utf8'), 'remember this');
  assert.equal(readFileSync(path.join(dir('personal'), 'skills', 'deploy', 'SKILL.md'), 'utf8'), 'how to deploy');
  assert.doesNotMatch(readFileSync(path.join(dir('personal'), '.env'), 'utf8'), /canary/);
  assert.equal(existsSync(path.join(dir('personal'), 'state.db')), false);
  const validate = await cli({ argv: ['-p', 'personal', 'config', 'validate'], env });
  assert.equal(validate.code, 0, validate.stderr);
});

test('profile use sets the sticky default; HERMES_PROFILE and -p (in any position) take precedence', async () => {
  const use = await cli({ argv: ['profile', 'use', 'work'], env });
  assert.equal(use.code, 0, use.stderr);
  const sticky = await cli({ argv: ['config', 'validate'], env });
  assert.match(sticky.stdout, /profile "work"/);
  const byEnv = await cli({ argv: ['config', 'validate'], env: { ...env, HERMES_PROFILE: 'personal' } });
  assert.match(byEnv.stdout, /profile "personal"/);
  const byFlag = await cli({ argv: ['config', 'validate', '-p', 'default'], env: { ...env, HERMES_PROFILE: 'personal' } });
  assert.match(byFlag.stdout, /profile "default"/);
  const list = await cli({ argv: ['profile', 'list'], env });
  assert.match(list.stdout, /^\* work\s+stopped\s+telegram\s+day job$/m);
  assert.match(list.stdout, /^  personal\s+stopped\s+none$/m, 'the clone has every platform disabled');
  writeFileSync(path.join(dir('work'), 'config.yaml'), 'platforms:\n  telegram:\n    enabled: true\n  slack:\n    enabled: "true"\n  sms:\n    enabled: false\n');
  const enabled = await cli({ argv: ['profile', 'list'], env });
  assert.match(enabled.stdout, /^\* work\s+stopped\s+telegram,slack\s+day job$/m);
  writeFileSync(path.join(dir('work'), 'config.yaml'), 'platforms: [unclosed\n');
  const broken = await cli({ argv: ['profile', 'list'], env });
  assert.match(broken.stdout, /^\* work\s+stopped\s+config broken\s+day job$/m);
  const missing = await cli({ argv: ['profile', 'use', 'nope'], env });
  assert.match(missing.stderr, /does not exist/);
  await cli({ argv: ['profile', 'use', 'default'], env });
  const reset = await cli({ argv: ['config', 'validate'], env });
  assert.match(reset.stdout, /profile "default"/);
});
