import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildSystemPrompt } from '../../../src/agent/soul.js';
import { resolveProfile } from '../../../src/home/index.js';

test("the system prompt is the profile's SOUL.md (or the bundled one), then agent.system_prompt", () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-soul-'));
  try {
    const profile = resolveProfile({ hermesHome: home, name: 'work' });
    const bundled = buildSystemPrompt({ profile, extra: undefined, workspace: '/w' });
    assert.match(bundled, /You are Hermes/);
    assert.match(bundled, /Profile: work\. .*\/w/);
    writeFileSync(path.join(home, 'SOUL.md'), 'not this one');
    mkdirSync(profile.dir, { recursive: true });
    writeFileSync(profile.soulPath, 'You are the work assistant.');
    const own = buildSystemPrompt({ profile, extra: 'Answer in French.', workspace: '/w' });
    assert.ok(own.startsWith('You are the work assistant.\n\nAnswer in French.'));
    assert.doesNotMatch(own, /not this one|You are Hermes/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
