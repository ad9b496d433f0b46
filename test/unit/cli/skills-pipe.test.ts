import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { nodeArgsFor } from '../../helpers/entry.js';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('hermes skills list | head -1: the reader closing the pipe (EPIPE) ends the listing quietly, exit 0, no stack trace', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-pipe-'));
  try {
    const skills = path.join(home, 'profiles', 'pipe', 'skills');
    mkdirSync(skills, { recursive: true });
    writeFileSync(path.join(path.dirname(skills), 'config.yaml'), 'gateway:\n  busy_policy: queue\n');
    // Enough lines to outgrow a pipe's buffer (64 KB) after the reader went away.
    for (let i = 0; i < 1500; i += 1) {
      const dir = path.join(skills, `skill-${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: Skill number ${i}, with a description long enough to fill the pipe quickly\n---\nbody\n`);
    }
    const child = spawn(process.execPath, [...nodeArgsFor(path.join(repo, 'src/cli/main.ts')), '-p', 'pipe', 'skills', 'list'], {
      cwd: repo,
      env: { ...process.env, HERMES_HOME: home, HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(stderr, '', 'something was written to stderr');
    assert.equal(code, 0);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
