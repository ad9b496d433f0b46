import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../../src/config/errors.js';
import { malformedEnvLines } from '../../../src/config/env-lines.js';
import { type LoadedConfig } from '../../../src/config/load.js';
import { loadAppConfig } from '../../../src/app/config-schema.js';
import { tempProfile } from './temp-profile.js';

/** Loads throwaway files: the config, or the ConfigError it fails with. */
async function load(params: { config?: string; dotenv?: string }): Promise<{ loaded?: LoadedConfig; error?: ConfigError; envPath: string }> {
  const { profile, cleanup } = tempProfile(params);
  try {
    return { loaded: await loadAppConfig({ profile, env: {} }), envPath: profile.envPath };
  } catch (error: unknown) {
    if (error instanceof ConfigError) return { error, envPath: profile.envPath };
    throw error;
  } finally {
    cleanup();
  }
}

test('a file with 3 problems: one ConfigError (exit 78) whose message lists all 3, not "(and 2 more problems)"', async () => {
  const { error } = await load({ config: 'model:\n  base_url: 127.0.0.1:18701/v1\n  max_retries: -1\ngateway:\n  busy_policy: bogus\n' });
  assert.ok(error);
  assert.equal(error.exitCode, 78);
  assert.deepEqual(
    error.problems.map((p) => p.keyPath),
    ['model.base_url', 'model.max_retries', 'gateway.busy_policy'],
  );
  const lines = error.message.split('\n');
  assert.equal(lines[0], '3 problems:');
  assert.equal(lines.length, 4);
  assert.match(lines[1] ?? '', /model\.base_url: .*needs http:\/\/ or https:\/\//);
  assert.match(lines[2] ?? '', /model\.max_retries: expected a number >= 0, found -1/);
  assert.match(lines[3] ?? '', /gateway\.busy_policy: expected one of interrupt\|queue\|steer, found "bogus"/);
  assert.doesNotMatch(error.message, /more problem/);
});

test('unset variables and schema problems come out together; a key with an unset variable is named once', async () => {
  const { error } = await load({ config: 'model:\n  base_url: ${NO_SUCH_URL}\n  name: ""\ngateway:\n  busy_policy: bogus\n' });
  assert.ok(error);
  assert.deepEqual(
    error.problems.map((p) => p.keyPath),
    ['model.base_url', 'model.name', 'gateway.busy_policy'],
  );
  assert.match(error.problems[0]?.message ?? '', /\$\{NO_SUCH_URL\} is not set/);
});

test('URLs are checked as http(s) URLs with the scheme named: model, fallbacks, auxiliary, platform API roots', async () => {
  const bad = [
    ['model:\n  base_url: localhost:8080/v1\n', 'model.base_url', /needs http:\/\/ or https:\/\/ in front \(e\.g\. "http:\/\/localhost:8080\/v1"\)/],
    ['model:\n  fallbacks:\n    - { name: m, base_url: "127.0.0.1:1/v1" }\n', 'model.fallbacks[0].base_url', /needs http:\/\/ or https:\/\//],
    ['auxiliary:\n  model:\n    name: m\n    base_url: ftp://h/v1\n', 'auxiliary.model.base_url', /not ftp:\/\//],
    ['platforms:\n  telegram:\n    api_root: api.telegram.org\n', 'platforms.telegram.api_root', /needs http:\/\/ or https:\/\//],
    ['platforms:\n  slack:\n    api_url: ws://slack.com/api/\n', 'platforms.slack.api_url', /not ws:\/\//],
    ['platforms:\n  discord:\n    api_url: "http://"\n', 'platforms.discord.api_url', /valid host/],
    ['platforms:\n  sms:\n    api_base: api.twilio.com\n', 'platforms.sms.api_base', /needs http:\/\/ or https:\/\//],
    ['platforms:\n  telegram:\n    webhook:\n      url: bot.example.com/telegram/webhook\n', 'platforms.telegram.webhook.url', /needs http:\/\/ or https:\/\//],
    ['platforms:\n  sms:\n    webhook_url: bot.example.com/sms/twilio\n', 'platforms.sms.webhook_url', /needs http:\/\/ or https:\/\/ in front \(e\.g\. "http:\/\/bot\.example\.com\/sms\/twilio"\)/],
    ['platforms:\n  sms:\n    webhook_url: "https://bot example.com/sms/twilio"\n', 'platforms.sms.webhook_url', /valid host/],
  ] as const;
  for (const [config, keyPath, pattern] of bad) {
    const { error } = await load({ config });
    assert.ok(error, `${keyPath} was accepted`);
    const problem = error.problems.find((p) => p.keyPath === keyPath);
    assert.ok(problem, `${keyPath}: ${error.message}`);
    assert.match(problem.message, pattern);
  }
  const { loaded } = await load({ config: 'model:\n  base_url: http://127.0.0.1:18701/v1\n  fallbacks: [{ name: m, base_url: "HTTPS://openrouter.ai/api/v1" }]\n' });
  assert.equal(loaded?.config.model.base_url, 'http://127.0.0.1:18701/v1');
});

test('a .env line without "=" is a warning naming the file and line number, never the line itself', async () => {
  const { loaded, envPath } = await load({ dotenv: 'GOOD=1\n# a comment\n\nsk-pasted-secret-without-a-name\nexport ALSO=2\nMULTI="one\ntwo"\nKEY: value\n' });
  assert.ok(loaded);
  const lineWarnings = loaded.warnings.filter((w) => w.file === envPath);
  assert.deepEqual(
    lineWarnings.map((w) => w.message),
    [`${envPath}:4: not a KEY=value line; ignored (write NAME=value, or start a comment with #)`],
  );
  assert.equal(loaded.env['ALSO'], '2');
  assert.doesNotMatch(lineWarnings[0]?.message ?? '', /sk-pasted/);
});

test('a config that fails because of a malformed .env line says so with its problems: the warning is not lost with the error', async () => {
  const { error, envPath } = await load({ config: 'model:\n  api_key: ${MY_KEY}\n  max_retries: lots\n', dotenv: 'GOOD=1\nMY_KEY sk-typed-without-equals\n' });
  assert.ok(error);
  assert.equal(error.exitCode, 78);
  assert.deepEqual(
    error.problems.map((p) => p.keyPath),
    ['model.api_key', 'model.max_retries'],
  );
  const warning = `${envPath}:2: not a KEY=value line; ignored (write NAME=value, or start a comment with #)`;
  assert.deepEqual(error.warnings, [warning]);
  assert.equal(error.message.split('\n').at(-1), `warning: ${warning}`);
  assert.doesNotMatch(error.message, /sk-typed/);
  // Without a malformed line the error is as before: the problems alone.
  const clean = await load({ config: 'model:\n  max_retries: lots\n', dotenv: 'GOOD=1\n' });
  assert.deepEqual(clean.error?.warnings, []);
  assert.doesNotMatch(clean.error?.message ?? '', /warning/);
});

test('malformedEnvLines follows a quoted value across lines and reports each broken line', () => {
  assert.deepEqual(malformedEnvLines({ text: "A='x\ny'\nnot a line\nB=\"z\"\n  also bad  \r\nC=1" }), [{ line: 3 }, { line: 5 }]);
});
