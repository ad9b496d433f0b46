import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';
import { createCronJob } from '../../helpers/scheduler.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hermes-lazy-load-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// A module hook that appends every URL the ESM loader loads (CJS packages imported from ESM included) to a file.
const hooks = path.join(tmp, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.HERMES_LOAD_LOG, url + '\\n');\n  return next(url, context);\n}\n`,
);
const register = path.join(tmp, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** Runs `hermes ARGS` in a child process against `home`; returns its stdout and the modules it loaded. */
async function loaded(params: { args: string[]; home: string }): Promise<{ code: number | null; stdout: string; urls: string[] }> {
  const log = path.join(tmp, `loads-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', register, path.join(repo, 'src/cli/main.ts'), ...params.args], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '', HERMES_HOME: params.home, HOME: params.home, HERMES_LOAD_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stdout, urls: readFileSync(log, 'utf8').split('\n').filter((u) => u !== '') };
}

/** The npm packages among loaded URLs ("zod", "@slack/bolt", ...), tsx itself left out. */
function packages(urls: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match?.[1] !== undefined && match[1] !== 'tsx' && match[1] !== 'esbuild' && match[1] !== 'get-tsconfig' && match[1] !== 'resolve-pkg-maps') names.add(match[1]);
  }
  return names;
}

/** The repo's own modules among loaded URLs, as paths from the repo root. */
function own(urls: readonly string[]): string[] {
  const root = pathToFileURL(repo).href + '/';
  return urls.filter((u) => u.startsWith(root) && !u.includes('/node_modules/')).map((u) => u.slice(root.length).replace(/\?.*$/, ''));
}

// What a command that needs none of it must not pay for: the gateway and agent, the SDKs, the logger, SQLite.
const heavy = ['better-sqlite3', 'pino', 'pino-pretty', 'openai', 'grammy', 'discord.js', '@slack/bolt', '@slack/web-api', 'fastify', 'imapflow', 'nodemailer', 'twilio', 'marked'];

describe('each hermes command loads only what it needs', () => {
  test('--version loads no package at all (not even commander) and none of the command modules', async () => {
    const home = mkdtempSync(path.join(tmp, 'home-'));
    const res = await loaded({ args: ['--version'], home });
    assert.equal(res.code, 0);
    assert.match(res.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.deepEqual([...packages(res.urls)], []);
    const mine = own(res.urls);
    assert.ok(mine.includes('src/cli/main.ts'));
    const commandTree = mine.filter((m) => /^src\/cli\/(program|context|output|.*-cmd|.*-commands)\.ts$/.test(m) || /^src\/(config|store|gateway|agent)\//.test(m) || m.startsWith('adapters/'));
    assert.deepEqual(commandTree, [], 'loaded for --version');
  });

  test('status on a fresh HERMES_HOME loads commander only: no config schema, store, logger, gateway or SDK', async () => {
    const home = mkdtempSync(path.join(tmp, 'home-'));
    const res = await loaded({ args: ['status'], home });
    assert.equal(res.code, 0);
    assert.equal(res.stdout, 'default: stopped\n');
    assert.deepEqual([...packages(res.urls)], ['commander']);
    const mine = own(res.urls);
    // The platform list and its descriptors (names, setup questions: the setup command's flags) load, with the terminal
    // chat's formatting line beside them; no adapter, schema or SDK.
    const descriptorsOnly = (m: string): boolean =>
      m === 'adapters/index.ts' || /^adapters\/[a-z]+\/descriptor\.ts$/.test(m) || m === 'adapters/kit/setup-checks.ts' || m === 'adapters/terminal/typed-message.ts';
    assert.ok(!mine.some((m) => m.startsWith('src/agent/') || m.startsWith('src/config/') || m.startsWith('src/store/') || m.startsWith('src/log/logger') || (m.startsWith('adapters/') && !descriptorsOnly(m))), mine.join('\n'));
    assert.deepEqual(mine.filter((m) => m.startsWith('src/gateway/')), []);
  });

  test('status with a config.yaml validates it (zod, yaml) but still loads no store, logger or SDK without a state.db', async () => {
    const home = mkdtempSync(path.join(tmp, 'home-'));
    writeFileSync(path.join(home, 'config.yaml'), 'gateway:\n  busy_policy: sometimes\n');
    mkdirSync(path.join(home, 'profiles', 'work'), { recursive: true });
    writeFileSync(path.join(home, 'profiles', 'work', 'config.yaml'), 'model:\n  name: m\n');
    const res = await loaded({ args: ['status'], home });
    assert.equal(res.code, 0);
    assert.match(res.stdout, /^default: stopped; its config is invalid[^\n]*busy_policy/m);
    assert.match(res.stdout, /^work: stopped\n/m);
    const used = packages(res.urls);
    assert.ok(used.has('zod') && used.has('yaml'), [...used].join(', '));
    for (const name of heavy) assert.ok(!used.has(name), `status loaded ${name}`);
  });

  test('status with a state.db reads its next job once (better-sqlite3), then from its note while the store is unchanged', async () => {
    const home = mkdtempSync(path.join(tmp, 'home-'));
    openStore({ path: path.join(home, 'state.db'), clock: systemClock }).close();
    const first = await loaded({ args: ['status'], home });
    assert.equal(first.stdout, 'default: stopped\n');
    assert.ok(packages(first.urls).has('better-sqlite3'));
    const second = await loaded({ args: ['status'], home });
    assert.equal(second.stdout, 'default: stopped\n');
    assert.ok(!packages(second.urls).has('better-sqlite3'), 'the unchanged store was read again');
    // A write to the store (as the gateway or `hermes cron` makes) is read again.
    const store = openStore({ path: path.join(home, 'state.db'), clock: systemClock });
    try {
      createCronJob({ store, name: 'Disk', cron: '0 8 * * *', nextRunAt: Date.UTC(2030, 0, 1, 8) });
      const third = await loaded({ args: ['status'], home });
      assert.ok(packages(third.urls).has('better-sqlite3'));
      assert.match(third.stdout, /^  next job: [0-9a-f]{8} "Disk" at 2030-01-01 08:00 \(UTC\)$/m);
    } finally {
      store.close();
    }
  });
});
