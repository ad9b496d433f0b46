#!/usr/bin/env node
// Collects every *.test.ts under test/ and runs them with node's own test runner through tsx.
// Node 20 does not expand globs for --test, so the file list is built here. Three files at once: most tests wait on
// timers (edit pacing, merge windows, restarts), so at two the two CPUs were about half idle (13 min for ~1,700 tests).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filter = process.argv.slice(2);

/** Recursively lists test files below a folder, sorted for a stable order. */
function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

/**
 * Files measured slowest (whole-suite run, Dec 2026), slowest first: they start first, so the last lane does not end on
 * one of them while the other two sit idle. Every other file follows in path order; a name no longer present is skipped.
 */
const slowFirst = [
  'test/e2e/install.test.ts',
  'test/e2e/jobs-crash-delivery.test.ts',
  'test/unit/cli/strictness-cli.test.ts',
  'test/e2e/orphan-preview.test.ts',
  'test/e2e/send-message-crash.test.ts',
  'test/e2e/telegram.test.ts',
  'test/e2e/keys-fallbacks.test.ts',
  'test/e2e/jobs-crash.test.ts',
  'test/unit/tools/approval/linear-matcher.test.ts',
  'test/unit/memory/crash.test.ts',
  'test/e2e/jobs.test.ts',
  'test/e2e/webhook-fuzz-sms.test.ts',
  'test/e2e/approvals-slack.test.ts',
  'test/e2e/approvals-telegram.test.ts',
  'test/e2e/webhook-fuzz-slack.test.ts',
  'test/e2e/disk-full-tmpfs.test.ts',
  'test/unit/secrets/property.test.ts',
  'test/e2e/approvals-discord.test.ts',
  'test/e2e/clarify-crash.test.ts',
  'test/e2e/webhook-fuzz-telegram.test.ts',
  'test/e2e/disk-full-log.test.ts',
  'test/e2e/status.test.ts',
  'test/unit/cli/skills-pipe.test.ts',
];

/** Known-slow files first (in slowFirst's order), then the rest in path order. */
function slowestFirst(list) {
  const rank = (f) => {
    const i = slowFirst.indexOf(f.split('\\').join('/'));
    return i === -1 ? slowFirst.length : i;
  };
  return list.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
}

const files = slowestFirst(collect(join(root, 'test')).filter((f) => filter.length === 0 || filter.some((x) => f.includes(x))));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
