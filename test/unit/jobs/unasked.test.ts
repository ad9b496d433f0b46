import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { AppConfig } from '../../../src/app/config-schema.js';
import { validateConfig } from '../../../src/config/validate.js';
import type { CommandRunner } from '../../../src/jobs/checks.js';
import { runUnasked } from '../../../src/jobs/unasked.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { captureLogger, recordingInject } from './unasked-helpers.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

test('runUnasked: the config drives the heartbeat and the checks, with the terminal limits and workspace, until aborted', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'unasked-'));
  try {
    const workspace = path.join(dir, 'workspace');
    mkdirSync(workspace);
    writeFileSync(path.join(dir, 'HEARTBEAT.md'), '- anything due?\n');
    const parsed = validateConfig({ schema: configSchema, 
      tree: {
        timezone: 'UTC',
        tools: { terminal: { timeout: '7s', max_output_bytes: 1234 } },
        heartbeat: { enabled: true, interval: '1h', target: 'telegram' },
        checks: [{ name: 'disk', command: 'df', interval: '30m', target: 'slack' }],
      },
      file: 'config.yaml',
    }).config;
    const config: AppConfig = { ...parsed, tools: { ...parsed.tools, workspace } };
    const seen: Array<Parameters<CommandRunner>[0]> = [];
    const run: CommandRunner = async (args) => {
      seen.push(args);
      return { output: 'disk 95%\n', exitCode: 0, exitSignal: null, killedFor: undefined };
    };
    const clock = new FakeClock();
    const { inject, requests } = recordingInject();
    const stop = new AbortController();
    const running = runUnasked({ config, profileDir: dir, inject, clock, signal: stop.signal, logger: captureLogger().logger, run });
    await clock.advance(60 * 60_000);
    assert.deepEqual(requests.map((r) => `${r.source}:${r.name}:${r.platform}`).sort(), ['check:disk:slack', 'check:disk:slack', 'heartbeat:heartbeat:telegram']);
    assert.equal(seen[0]?.cwd, workspace);
    assert.equal(seen[0]?.timeoutMs, 7_000);
    assert.equal(seen[0]?.maxOutputBytes, 1234);
    assert.equal(seen[0]?.env['HOME'], workspace);
    assert.equal(seen[0]?.env['OPENAI_API_KEY'], undefined);
    stop.abort();
    await running;
    assert.equal(clock.pending, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
