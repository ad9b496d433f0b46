import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkPrompt } from '../../src/jobs/checks.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness } from '../helpers/harness.js';
import { createJob, driveUntil, runsOf, withStore } from '../helpers/jobs.js';

const SECRET = 'ghp_r14CheckOutputSecret0123456789';

test('a check whose command prints a secret of the profile: the output is scrubbed before the model sees it and before it is stored', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, env: { GITHUB_TOKEN: SECRET }, config: { timezone: 'UTC' } });
  try {
    h.fake.enqueue({ text: 'the deploy token is printed by the check' });
    const output = `GITHUB_TOKEN=${SECRET}\ndisk 95%`;
    const result = h.runner.inject({
      platform: 'test',
      chat: { id: 'chat-1', kind: 'dm' },
      text: checkPrompt({ check: { name: 'env', prompt: undefined }, output }),
      sessionKey: 'test:test:chat-1:check=env:at=1',
      origin: { kind: 'check', name: 'env' },
      messageId: 'check:env:1',
      title: 'check env',
    });
    assert.notEqual(result.kind, 'refused');
    await driveUntil({ clock, check: () => h.fake.requests.length === 1 && h.adapter.shown().length === 1, what: 'the check turn' });
    const sentToModel = JSON.stringify(h.fake.requests[0]?.body ?? {});
    assert.match(sentToModel, /disk 95%/, 'the output reached the model');
    assert.doesNotMatch(sentToModel, new RegExp(SECRET), 'the secret did not');
    const stored = withStore(h, (store) => {
      const session = store.activeSession({ key: 'test:test:chat-1:check=env:at=1' });
      assert.ok(session !== undefined);
      return JSON.stringify(store.history({ sessionId: session.id, limit: 50 }));
    });
    assert.match(stored, /disk 95%/);
    assert.doesNotMatch(stored, new RegExp(SECRET), 'no stored message holds the secret');
  } finally {
    await h.stop();
  }
});

test('a script job whose command prints a secret of the profile: the output kept with the run is scrubbed, and so is what is sent', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, env: { GITHUB_TOKEN: SECRET }, config: { timezone: 'UTC', cron: { catch_up_window: '1h' } } });
  try {
    // The command reads the token from a file (as `cat .env` or a config dump would print it).
    const file = path.join(h.profile.dir, 'token.txt');
    writeFileSync(file, `GITHUB_TOKEN=${SECRET}\n`);
    const job = createJob({ h, clock, name: 'Env', prompt: '', script: `cat '${file}'; echo "disk 95%"`, schedule: 'in 1m' });
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivered', what: 'the script run' });
    const shown = h.adapter.shown().map((m) => m.text).join('\n');
    assert.match(shown, /disk 95%/);
    assert.doesNotMatch(shown, new RegExp(SECRET), 'the chat never sees the secret');
    const kept = withStore(h, (store) => {
      const sessionId = store.runsOf({ jobId: job.id, limit: 1 })[0]?.sessionId;
      assert.ok(sessionId !== null && sessionId !== undefined, 'the output is kept with the run');
      return JSON.stringify(store.history({ sessionId, limit: 50 }));
    });
    assert.match(kept, /disk 95%/);
    assert.doesNotMatch(kept, new RegExp(SECRET), 'the stored output has no secret');
  } finally {
    await h.stop();
  }
});
