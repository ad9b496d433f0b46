import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { GLIBC_TUNABLES, launcherLines, NODE_FLAGS } from '../../src/cli/node-flags.js';
import { runCommand } from '../helpers/run-command.js';

const repo = path.resolve(import.meta.dirname, '../..');
const nodeDir = path.dirname(process.execPath);

/**
 * The README's install, `npm run build && npm install -g .`, done on a copy of the package (its package.json, the
 * build written into the copy, the repo's node_modules found from the folder above, as npm ci would have put them)
 * into a temp prefix, offline: then `hermes` is a command on a PATH that holds only that prefix's bin and node.
 */
test('the README install leaves a working `hermes` command on a clean PATH', { timeout: 180_000 }, async () => {
  // What this test does is what the README says to do.
  const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
  assert.equal(/## Start[\s\S]*?```sh\n([^\n]*)\n```/.exec(readme)?.[1], 'npm ci && npm run build && npm install -g .');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'hermes-install-'));
  try {
    const pkg = path.join(tmp, 'hermes-gateway');
    mkdirSync(pkg);
    const manifest = readFileSync(path.join(repo, 'package.json'), 'utf8');
    writeFileSync(path.join(pkg, 'package.json'), manifest);
    for (const asset of ['profiles', 'systemd', 'config.example.yaml']) symlinkSync(path.join(repo, asset), path.join(pkg, asset));
    symlinkSync(realpathSync(path.join(repo, 'node_modules')), path.join(tmp, 'node_modules'));
    const npmEnv = {
      PATH: `${nodeDir}${path.delimiter}${process.env['PATH'] ?? ''}`,
      HOME: tmp,
      npm_config_userconfig: path.join(tmp, 'npmrc'),
      npm_config_cache: path.join(tmp, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    writeFileSync(npmEnv.npm_config_userconfig, '');

    const build = await runCommand({ command: 'npm', args: ['run', 'build', '--', '--outDir', path.join(pkg, 'dist')], cwd: repo, env: npmEnv });
    assert.equal(build.code, 0, build.stdout + build.stderr);
    const prefix = path.join(tmp, 'prefix');
    const install = await runCommand({ command: 'npm', args: ['install', '-g', '.', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], cwd: pkg, env: npmEnv });
    assert.equal(install.code, 0, install.stdout + install.stderr);

    // The bin is a symlink to the built entry, which npm made executable (it starts with the launcher: /bin/sh
    // execs node with the project's V8 options on the same file; src/cli/node-flags.ts).
    const bin = path.join(prefix, 'bin', 'hermes');
    assert.ok(lstatSync(bin).isSymbolicLink());
    assert.ok((statSync(bin).mode & 0o111) !== 0, 'hermes is not executable');
    assert.ok(readFileSync(bin, 'utf8').startsWith(launcherLines()));

    const home = path.join(tmp, 'home');
    mkdirSync(home);
    const clean = { PATH: `${path.join(prefix, 'bin')}${path.delimiter}${nodeDir}`, HOME: home, HERMES_HOME: home };
    const version = await runCommand({ command: 'hermes', args: ['--version'], cwd: tmp, env: clean });
    assert.equal(version.stderr, '');
    assert.equal(version.code, 0);
    assert.equal(version.stdout, `${(JSON.parse(manifest) as { version: string }).version}\n`);
    // What the launcher runs: node from the PATH with the flags and malloc's settings, on the file it was started as,
    // arguments kept; a GLIBC_TUNABLES of the user's own is left alone.
    const traced = await runCommand({ command: 'sh', args: ['-x', bin, '--version'], cwd: tmp, env: clean });
    assert.equal(traced.code, 0, traced.stderr);
    assert.ok(traced.stderr.includes(`+ export GLIBC_TUNABLES=${GLIBC_TUNABLES}\n`), traced.stderr);
    assert.ok(traced.stderr.includes(`+ exec node ${NODE_FLAGS.join(' ')} ${bin} --version`), traced.stderr);
    const own = await runCommand({ command: 'sh', args: ['-x', bin, '--version'], cwd: tmp, env: { ...clean, GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } });
    assert.ok(own.stderr.includes('+ export GLIBC_TUNABLES=glibc.malloc.arena_max=2\n'), own.stderr);
    // The whole command tree loads from the installed copy (commander and the command modules resolve).
    const help = await runCommand({ command: 'hermes', args: ['--help'], cwd: tmp, env: clean });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^  chat\b/m);
    const status = await runCommand({ command: 'hermes', args: ['status'], cwd: tmp, env: clean });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.stdout, 'default: stopped\n');

    // The build is a bundle (scripts/build.ts): the config schema (zod, yaml, dotenv bundled in) validates from it,
    // with zod's English messages, and every problem is listed.
    writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: 127.0.0.1:18701/v1\n  max_retries: lots\ngateway:\n  busy_policy: sometimes\n');
    writeFileSync(path.join(home, '.env'), 'OPENAI_API_KEY=sk-install-test\n', { mode: 0o600 });
    const invalid = await runCommand({ command: 'hermes', args: ['config', 'validate'], cwd: tmp, env: clean });
    assert.equal(invalid.code, 78, invalid.stdout + invalid.stderr);
    const problems = invalid.stdout + invalid.stderr;
    for (const key of ['model.base_url', 'model.max_retries', 'gateway.busy_policy']) assert.match(problems, new RegExp(key.replace('.', '\\.')), problems);
    assert.match(problems, /expected/i);
    assert.match((await runCommand({ command: 'hermes', args: ['status'], cwd: tmp, env: clean })).stdout, /^default: stopped; its config is invalid/);
    writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: m\n');
    const valid = await runCommand({ command: 'hermes', args: ['config', 'validate'], cwd: tmp, env: clean });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    // zod's other locales (1.6 MB of source) are left out of the bundle: the source maps name only English.
    const sources = readdirSync(path.join(pkg, 'dist', 'chunks'))
      .filter((f) => f.endsWith('.map'))
      .flatMap((f) => (JSON.parse(readFileSync(path.join(pkg, 'dist', 'chunks', f), 'utf8')) as { sources: string[] }).sources);
    const locales = sources.filter((s) => /zod\/v4\/locales\/[^/]+\.js$/.test(s) && !s.includes('zod-locales:'));
    assert.deepEqual(locales.map((s) => path.basename(s)), ['en.js']);

    // Code splitting kept each command lazy in the bundle: `status` on this configured profile loads a few of the
    // built files and none of the gateway's packages (without splitting, one file would import them all at start).
    const log = path.join(tmp, 'loads.txt');
    writeFileSync(log, '');
    const hooks = path.join(tmp, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`);
    const register = path.join(tmp, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    /** `hermes status` with every module it loads traced: its output and the loaded files' URLs. */
    const tracedStatus = async (env: Record<string, string>): Promise<{ stdout: string; urls: string[] }> => {
      writeFileSync(log, '');
      const traced = await runCommand({ command: process.execPath, args: ['--import', register, bin, 'status'], cwd: tmp, env });
      assert.equal(traced.code, 0, traced.stderr);
      return { stdout: traced.stdout, urls: readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file:')) };
    };
    /** Whether any loaded built file holds code of one of `names` (its source map lists the bundled modules: node_modules/… here, a longer path where node_modules is a link). */
    const loadsBundled = (urls: readonly string[], names: readonly string[]): boolean =>
      urls
        .filter((u) => u.includes('/hermes-gateway/dist/'))
        .some((u) => (JSON.parse(readFileSync(new URL(`${u}.map`), 'utf8')) as { sources: string[] }).sources.some((s) => names.some((name) => s.includes(`node_modules/${name}/`))));
    const loadsSchema = (urls: readonly string[]): boolean => loadsBundled(urls, ['zod', 'yaml']);
    const first = await tracedStatus(clean);
    assert.equal(first.stdout, 'default: stopped\n');
    const built = first.urls.filter((u) => u.includes('/hermes-gateway/dist/'));
    // Split: more than one file, and far from all of them (small shared chunks of the config schema count too).
    assert.ok(built.length > 3 && built.length < 45, `${built.length} built files:\n${built.join('\n')}`);
    const heavy = ['better-sqlite3', 'pino', 'openai', 'grammy', 'discord.js', '@slack/bolt', 'fastify', 'imapflow', 'nodemailer', 'twilio', 'marked'];
    for (const name of heavy) assert.ok(!first.urls.some((u) => u.includes(`/node_modules/${name}/`)) && !loadsBundled(first.urls, [name]), `status loaded ${name}`);

    // The first status on this config validated it (zod, yaml) and noted that it loads; the next, on the same files,
    // loads neither. Any change to config.yaml, .env or a variable it names is checked again.
    assert.equal(loadsSchema(first.urls), true);
    assert.ok(statSync(path.join(home, 'config-valid.json')).isFile());
    const second = await tracedStatus(clean);
    assert.equal(second.stdout, 'default: stopped\n');
    assert.equal(loadsSchema(second.urls), false, second.urls.join('\n'));
    writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: m\n  max_retries: lots\n');
    assert.match((await tracedStatus(clean)).stdout, /^default: stopped; its config is invalid.*model\.max_retries/);
    writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: ${MODEL_NAME}\n');
    const named = { ...clean, MODEL_NAME: 'gpt-4o-mini' };
    assert.equal((await tracedStatus(named)).stdout, 'default: stopped\n');
    assert.equal(loadsSchema((await tracedStatus(named)).urls), false);
    assert.match((await tracedStatus(clean)).stdout, /^default: stopped; its config is invalid.*MODEL_NAME/);
    writeFileSync(path.join(home, '.env'), 'OPENAI_API_KEY=sk-install-test\nnot a line\n', { mode: 0o600 });
    assert.equal(loadsSchema((await tracedStatus(named)).urls), true);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
