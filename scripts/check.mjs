#!/usr/bin/env node
// The static checks of `npm test`, run side by side (each is mostly one CPU): the type check (tsc), the dependency
// rules (dependency-cruiser) and eslint. Each one's output is printed whole when it ends; any failure fails the run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const checks = ['typecheck', 'lint:deps', 'lint'];

/** Runs one npm script; resolves with its exit code, its output and how long it took. */
function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: `${String(error)}\n`, ms: Date.now() - started }));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output: Buffer.concat(output).toString(), ms: Date.now() - started }));
  });
}

const results = await Promise.all(checks.map((script) => run(script).then((result) => {
  const status = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
  process.stdout.write(`${result.output.trimEnd() === '' ? '' : `${result.output.trimEnd()}\n`}check ${result.script}: ${status} in ${(result.ms / 1000).toFixed(1)} s\n`);
  return result;
})));
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
