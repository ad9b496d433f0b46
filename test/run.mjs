#!/usr/bin/env node
// Runs every *.test.ts under test/ with node's own test runner, four files at once.
//
// The TypeScript is compiled once, up front, instead of in every test process: esbuild transforms src/, adapters/,
// test/ and bench/ (some tests run a benchmark's code) file by file, as tsx does in each process, so the code is the
// same. The output is a copy of the checkout in the temp folder, where the .ts sources sit beside their .js and every
// other top-level entry is a link back to the checkout. Each test process then loads plain JavaScript: measured on
// test/unit/gateway (29 files), 10.9 s of wall time and 10.8 s of CPU against 19.4 s and 26.2 s through tsx.
// Children that tests start with `--import tsx` on a .ts file still work there (the .ts files are copied too).
//
// With --with-checks (`npm test`), the static checks (scripts/check.mjs: tsc, dependency rules, eslint) run beside
// the tests, on the CPU the tests leave idle while they wait on timers and children; their report goes to stderr
// when they end, and a failing check fails the run.
//
// Node 20 does not expand globs for --test, so the file list is built here; it also sorts the list itself.
// Other arguments filter the files by substring (`node test/run.mjs e2e/telegram unit/store`).
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { passWithRecap } from './failure-recap.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const withChecks = process.argv.includes('--with-checks');
const filter = process.argv.slice(2).filter((arg) => arg !== '--with-checks');
/** The compiled folders; everything else at the top level is linked. */
const compiled = ['src', 'adapters', 'test', 'bench'];

/** Recursively lists the files below a folder whose names end with `suffix`, sorted for a stable order. */
function collect(dir, suffix) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...collect(full, suffix));
    else if (name.endsWith(suffix)) out.push(full);
  }
  return out;
}

/** Lays out the compiled copy of the checkout (one folder per checkout, made anew each run) and returns its path. */
async function compile() {
  const out = join(os.tmpdir(), `hermes-test-${createHash('sha1').update(root).digest('hex').slice(0, 10)}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(root)) {
    if (name === '.git') continue;
    if (compiled.includes(name)) cpSync(join(root, name), join(out, name), { recursive: true });
    else symlinkSync(join(root, name), join(out, name));
  }
  const entryPoints = compiled.flatMap((dir) => collect(join(root, dir), '.ts'));
  await build({
    entryPoints,
    outdir: out,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    // Linked maps: free unless a run asks for them (NODE_OPTIONS=--enable-source-maps shows .ts lines in stacks).
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return out;
}

/**
 * Runs a node child to its end; resolves with its exit code (1 when it could not start or was killed). A piped stdout
 * goes through `pass` (its promise is awaited before resolving) or else to stderr.
 */
function runNode(params) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, params.args, { cwd: params.cwd, stdio: params.stdio });
    const passed = params.stdio[1] !== 'pipe' ? Promise.resolve() : params.pass ? params.pass(child.stdout) : (child.stdout.pipe(process.stderr), Promise.resolve());
    child.on('error', (error) => {
      console.error(String(error));
      resolve(1);
    });
    child.on('close', (code) => void passed.then(() => resolve(code ?? 1)));
  });
}

const checks = withChecks ? runNode({ args: [join(root, 'scripts', 'check.mjs')], cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }) : Promise.resolve(0);
const started = Date.now();
const out = await compile();
const files = collect(join(out, 'test'), '.test.js')
  .map((f) => relative(out, f))
  .filter((f) => filter.length === 0 || filter.some((x) => f.replace(/\.js$/, '.ts').includes(x)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
console.log(`# compiled src, adapters, test and bench into ${out} in ${Date.now() - started} ms`);
// Four files at once: most tests wait on timers (edit pacing, merge windows, restarts) and children, so fewer leave
// the two CPUs partly idle (measured on the whole suite: 435 s at four, 512 s at three). HERMES_TEST_CONCURRENCY
// sets another number.
const concurrency = process.env['HERMES_TEST_CONCURRENCY'] ?? '4';
// The TAP stream passes through failure-recap.mjs, which lists the failed tests again just before the summary.
const tests = await runNode({
  args: ['--test', `--test-concurrency=${concurrency}`, ...files],
  cwd: out,
  stdio: ['inherit', 'pipe', 'inherit'],
  pass: (stdout) => passWithRecap({ input: stdout, output: process.stdout }),
});
const checked = await checks;
if (checked !== 0) console.error('the static checks failed (their report is above): npm run check');
process.exit(tests !== 0 ? tests : checked);
