import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ConfigError } from '../../../src/config/errors.js';
import { loadAppConfig } from '../../../src/app/config-schema.js';
import { tempProfile } from './temp-profile.js';

/** Loads a config from throwaway files and cleans up. */
async function load(params: { config?: string; dotenv?: string; env?: Record<string, string> }) {
  const { profile, cleanup } = tempProfile(params);
  try {
    return { profile, loaded: await loadAppConfig({ profile, env: params.env ?? {} }) };
  } finally {
    cleanup();
  }
}

/** Asserts that loading fails with a ConfigError and returns it. */
async function loadError(params: { config?: string; dotenv?: string; env?: Record<string, string> }): Promise<ConfigError> {
  const { profile, cleanup } = tempProfile(params);
  try {
    await loadAppConfig({ profile, env: params.env ?? {} });
  } catch (error: unknown) {
    if (error instanceof ConfigError) return error;
    throw error;
  } finally {
    cleanup();
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  test('a missing config.yaml gives the defaults', async () => {
    const { profile, loaded } = await load({});
    assert.equal(loaded.sources.configFile.existed, false);
    assert.equal(loaded.sources.envFile.existed, false);
    assert.equal(loaded.config.model.base_url, 'https://api.openai.com/v1');
    assert.equal(loaded.config.agent.max_iterations, 90);
    assert.equal(loaded.config.gateway.busy_policy, 'interrupt');
    assert.equal(loaded.config.gateway.http.port, 8787);
    assert.equal(loaded.config.stream.edit_interval, 1000);
    assert.equal(loaded.config.logging.max_size, 10 * 1024 * 1024);
    assert.equal(loaded.config.tools.workspace, profile.workspaceDir);
    assert.deepEqual(loaded.warnings, []);
    assert.deepEqual(loaded.secrets, []);
  });

  test('an empty file and empty sections are defaults too', async () => {
    const { loaded } = await load({ config: 'model:\ngateway:\n  http:\n' });
    assert.equal(loaded.sources.configFile.existed, true);
    assert.equal(loaded.config.model.name, 'gpt-4o-mini');
    assert.equal(loaded.config.gateway.http.host, '127.0.0.1');
  });

  test('the profile .env overrides the inherited environment and feeds interpolation', async () => {
    const { loaded } = await load({
      config: 'model:\n  api_key: ${OPENAI_API_KEY}\n  name: ${MODEL:-gpt-x}\n  base_url: ${BASE}\n',
      dotenv: 'OPENAI_API_KEY=sk-from-dotenv-1234\n',
      env: { OPENAI_API_KEY: 'sk-from-shell', MODEL: 'llama', BASE: 'http://127.0.0.1:1/v1' },
    });
    assert.equal(loaded.config.model.api_key, 'sk-from-dotenv-1234');
    assert.equal(loaded.config.model.name, 'llama');
    assert.equal(loaded.env['OPENAI_API_KEY'], 'sk-from-dotenv-1234');
    assert.equal(loaded.env['BASE'], 'http://127.0.0.1:1/v1');
    assert.ok(loaded.secrets.includes('sk-from-dotenv-1234'));
    assert.ok(!loaded.secrets.includes('sk-from-shell'));
  });

  test('interpolated numbers and booleans are typed', async () => {
    const { loaded } = await load({
      config: 'gateway:\n  http:\n    port: ${PORT}\nplatforms:\n  telegram:\n    enabled: ${TG:-false}\n    token: 1:abc\n',
      env: { PORT: '9999', TG: 'true' },
    });
    assert.equal(loaded.config.gateway.http.port, 9999);
    assert.equal(loaded.config.platforms.telegram.enabled, true);
  });

  test('an unset variable names the key path and the .env file', async () => {
    const error = await loadError({ config: 'model:\n  api_key: ${OPENAI_API_KEY}\n' });
    assert.equal(error.keyPath, 'model.api_key');
    assert.match(error.message, /model\.api_key: \$\{OPENAI_API_KEY\} is not set; add it to \/.+\/\.env/);
  });

  test('a .env that is a directory is a clear ConfigError', async () => {
    const { profile, cleanup } = tempProfile({});
    try {
      fs.mkdirSync(profile.envPath);
      await assert.rejects(loadAppConfig({ profile, env: {} }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.exitCode, 78);
        assert.equal(error.file, profile.envPath);
        assert.match(error.message, /\.env: cannot be read \(EISDIR: it is a directory/);
        assert.match(error.hint ?? '', /Remove the directory/);
        return true;
      });
    } finally {
      cleanup();
    }
  });

  test('an unreadable .env is a clear ConfigError', { skip: process.getuid?.() === 0 ? 'root can read anything' : false }, async () => {
    const { profile, cleanup } = tempProfile({ dotenv: 'A=1\n' });
    try {
      fs.chmodSync(profile.envPath, 0o000);
      await assert.rejects(loadAppConfig({ profile, env: {} }), /cannot be read \(EACCES: permission denied\)/);
    } finally {
      cleanup();
    }
  });

  test('malformed YAML reports file and line:col', async () => {
    const error = await loadError({ config: 'model:\n  name: "unterminated\nagent:\n  max_iterations: [1\n' });
    assert.match(error.message, /config\.yaml:\d+:\d+: YAML syntax error: /);
    const nested = await loadError({ config: 'model:\n  name: ok\n  base_url: x: y\n' });
    assert.match(nested.message, /config\.yaml:3:13: YAML syntax error: Nested mappings are not allowed/);
    const duplicate = await loadError({ config: 'model:\n  name: a\n  name: b\n' });
    assert.match(duplicate.message, /config\.yaml:3:3: YAML syntax error: Map keys must be unique$/);
    assert.equal(duplicate.exitCode, 78);
  });

  test('a YAML syntax error never quotes a secret', async () => {
    const error = await loadError({ config: 'model:\n  api_key: "sk-secret-value-123\n  name: [x\n' });
    assert.doesNotMatch(`${error.message}\n${error.hint ?? ''}`, /sk-secret-value-123/);
  });

  test('a top level that is not a mapping is an error', async () => {
    const error = await loadError({ config: '- a\n- b\n' });
    assert.match(error.message, /expected a mapping .* found a list/);
  });

  test('a wrong type names file, key path, expected and found (exit code 78)', async () => {
    const { profile, cleanup } = tempProfile({ config: 'gateway:\n  busy_policy: sometimes\n' });
    try {
      await assert.rejects(loadAppConfig({ profile, env: {} }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.exitCode, 78);
        assert.equal(error.file, profile.configPath);
        assert.equal(error.keyPath, 'gateway.busy_policy');
        assert.equal(error.expected, 'one of interrupt|queue|steer');
        assert.equal(error.found, '"sometimes"');
        assert.equal(error.message, `${profile.configPath}: gateway.busy_policy: expected one of interrupt|queue|steer, found "sometimes"`);
        return true;
      });
    } finally {
      cleanup();
    }
    const range = await loadError({ config: 'agent:\n  max_parallel_tools: 64\nmodel:\n  max_retries: lots\n' });
    assert.deepEqual(
      range.problems.map((p) => [p.keyPath, p.expected, p.found]),
      [
        ['model.max_retries', 'a number', '"lots"'],
        ['agent.max_parallel_tools', 'a number <= 32', '64'],
      ],
    );
  });

  test('secret values are never printed in a ConfigError', async () => {
    const byKey = await loadError({ config: 'platforms:\n  telegram:\n    token: [not, a, string]\n  slack:\n    bot_token: 12345678\n' });
    const slack = byKey.problems.find((p) => p.keyPath === 'platforms.slack.bot_token');
    assert.equal(slack?.found, '***');
    assert.doesNotMatch(byKey.message, /12345678/);
    const byValue = await loadError({ config: 'model:\n  name: ${TOKEN_VALUE}\ngateway:\n  busy_policy: ${TOKEN_VALUE}\n', dotenv: 'TOKEN_VALUE=hunter2-canary\n' });
    assert.equal(byValue.found, '***');
    assert.doesNotMatch(byValue.message, /hunter2-canary/);
  });

  test('an unknown key is a warning with its key path, not an error', async () => {
    const { loaded } = await load({ config: 'gatway:\n  busy_policy: queue\nmodel:\n  nmae: x\n  name: m\n' });
    assert.equal(loaded.config.model.name, 'm');
    assert.deepEqual(
      loaded.warnings.map((w) => w.keyPath).sort(),
      ['gatway', 'model.nmae'],
    );
    assert.match(loaded.warnings.find((w) => w.keyPath === 'gatway')?.message ?? '', /unknown key ignored \(did you mean "gateway"\?\)/);
  });

  test('a platform is enabled only by enabled: true, never by a token alone', async () => {
    const { loaded } = await load({
      config: 'platforms:\n  telegram:\n    token: 123:abc\n  discord:\n    enabled: true\n    token: d-token\n',
    });
    assert.equal(loaded.config.platforms.telegram.enabled, false);
    assert.equal(loaded.config.platforms.telegram.token, '123:abc');
    assert.equal(loaded.config.platforms.discord.enabled, true);
    assert.equal(loaded.config.platforms.slack.enabled, false);
    assert.deepEqual(loaded.config.platforms.telegram.allowed_users, []);
  });

  test('allowed_users: small numeric ids become text, big unquoted ones are rejected', async () => {
    const { loaded } = await load({ config: 'platforms:\n  telegram:\n    allowed_users: [123456789, "42"]\n' });
    assert.deepEqual(loaded.config.platforms.telegram.allowed_users, ['123456789', '42']);
    const error = await loadError({ config: 'platforms:\n  discord:\n    allowed_users: [123456789012345678901]\n' });
    assert.equal(error.keyPath, 'platforms.discord.allowed_users[0]');
    assert.match(error.hint ?? '', /Fix platforms\.discord\.allowed_users\[0\] in /);
  });

  test('durations accept seconds and unit strings, normalized to milliseconds', async () => {
    const { loaded } = await load({
      config:
        'model:\n  request_timeout: 90\ngateway:\n  drain_timeout: 2m\nstream:\n  edit_interval: 500ms\n  typing_interval: 1.5\n' +
        'tools:\n  terminal:\n    timeout: 1h\nlogging:\n  max_size: 64k\n',
    });
    assert.equal(loaded.config.model.request_timeout, 90_000);
    assert.equal(loaded.config.gateway.drain_timeout, 120_000);
    assert.equal(loaded.config.stream.edit_interval, 500);
    assert.equal(loaded.config.stream.typing_interval, 1500);
    assert.equal(loaded.config.tools.terminal.timeout, 3_600_000);
    assert.equal(loaded.config.logging.max_size, 65536);
    const tooFast = await loadError({ config: 'stream:\n  edit_interval: 100ms\n' });
    assert.equal(tooFast.keyPath, 'stream.edit_interval');
    assert.match(tooFast.message, /expected a duration of at least 250ms, found "100ms"/);
    const garbage = await loadError({ config: 'gateway:\n  drain_timeout: soon\n' });
    assert.match(garbage.message, /gateway\.drain_timeout: expected a duration such as 500ms, 30s, 2m, 1h or 7d/);
  });

  test('secrets include secret-looking config values and every .env value', async () => {
    const { loaded } = await load({
      config: 'model:\n  api_key: ${K}\n  max_tokens: 4096\nplatforms:\n  email:\n    password: pw-inline-9\n    username: bob\n',
      dotenv: 'K=sk-abc-1234\nOTHER=plain-value\nEMPTY=\n',
    });
    assert.deepEqual([...loaded.secrets].sort(), ['plain-value', 'pw-inline-9', 'sk-abc-1234']);
  });

  test('tools.workspace resolves relative to the profile directory', async () => {
    const { profile, loaded } = await load({ config: 'tools:\n  workspace: work/here\n' });
    assert.equal(loaded.config.tools.workspace, `${profile.dir}/work/here`);
    const { loaded: abs } = await load({ config: 'tools:\n  workspace: /srv/ws\n' });
    assert.equal(abs.config.tools.workspace, '/srv/ws');
    const { loaded: home } = await load({ config: 'tools:\n  workspace: ~/ws\n', env: { HOME: '/home/ann' } });
    assert.equal(home.config.tools.workspace, '/home/ann/ws');
  });
});

test('model.api_key falls back to OPENAI_API_KEY and is treated as a secret', async () => {
  const t = tempProfile({});
  try {
    const loaded = await loadAppConfig({ profile: t.profile, env: { OPENAI_API_KEY: 'sk-from-env-123' } });
    assert.equal(loaded.config.model.api_key, 'sk-from-env-123');
    assert.ok(loaded.secrets.includes('sk-from-env-123'));
    const none = await loadAppConfig({ profile: t.profile, env: {} });
    assert.equal(none.config.model.api_key, undefined);
  } finally {
    t.cleanup();
  }
});
