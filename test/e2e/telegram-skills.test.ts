import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

test('telegram: /my_skill (Telegram names cannot hold -) runs the skill my-skill; /skills shows it as /my_skill', { timeout: 30_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'] },
    ],
  });
  try {
    const dir = path.join(h.profile.skillsDir, 'my-skill');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: my-skill\ndescription: Checks the build\n---\nRun `make check` and report the failures.\n');
    fake.pushMessage({ chat: dm, from: owner, text: '/skills' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.startsWith('Skills (1)')), timeoutMs: 10_000 });
    const listed = fake.chatMessages(dm.id).find((m) => m.shown.startsWith('Skills (1)'))?.shown ?? '';
    assert.match(listed, /\/my_skill — Checks the build/);
    h.fake.setResponder(() => ({ text: 'All green.' }));
    fake.pushMessage({ chat: dm, from: owner, text: '/my_skill@hermes_test_bot on main' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'All green.'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    const content = String((h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content']);
    assert.match(content, /The user ran the skill "my-skill"/);
    assert.match(content, /Run `make check` and report the failures\./);
    assert.match(content, /on main$/);
  } finally {
    await h.stop();
    await fake.close();
  }
});
