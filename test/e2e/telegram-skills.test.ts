import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { skillMenuCommands } from '../../adapters/telegram/commands-menu.js';
import { skillCommandsFor } from '../../src/app/platforms.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

/** Writes skills/<folder>/SKILL.md. */
function writeSkill(params: { skillsDir: string; folder: string; text: string }): void {
  const dir = path.join(params.skillsDir, params.folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), params.text);
}

test('telegram: /my_skill (Telegram names cannot hold -) runs the skill my-skill; /skills shows it as /my_skill; the menu lists it after a restart', { timeout: 30_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    adapters: ({ profile, clock, logger }) => [
      {
        adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] }, menuExtras: () => skillMenuCommands({ skills: skillCommandsFor({ dir: profile.skillsDir, platform: 'telegram' }) }) }),
        allow: ['1001'],
      },
    ],
  });
  try {
    const builtIns = ['new', 'stop', 'status', 'memory', 'compress', 'skills', 'cron', 'sethome', 'approve', 'deny', 'model', 'usage', 'title', 'sessions', 'resume', 'verbose', 'voice', 'rollback', 'retry', 'undo', 'queue', 'steer', 'context', 'tools', 'reload_mcp', 'help'];
    await fake.waitFor({ predicate: (f) => f.myCommands().length > 0, timeoutMs: 10_000 });
    assert.deepEqual(fake.myCommands().map((c) => c.command), builtIns);
    const { skillsDir } = h.profile;
    writeSkill({ skillsDir, folder: 'my-skill', text: '---\nname: my-skill\ndescription: Checks the build\n---\nRun `make check` and report the failures.\n' });
    writeSkill({ skillsDir, folder: 'long-one', text: `---\nname: long-one\ndescription: ${'d'.repeat(300)}\n---\nBody.\n` });
    writeSkill({ skillsDir, folder: 'status', text: '---\nname: status\ndescription: A copy named like a command\n---\nBody.\n' });
    writeSkill({ skillsDir, folder: 'slack-only', text: '---\nname: slack-only\ndescription: Posts to Slack\nplatforms: [slack]\n---\nBody.\n' });
    await h.restart();
    await fake.waitFor({ predicate: (f) => f.myCommands().length > builtIns.length, timeoutMs: 10_000 });
    const menu = fake.myCommands();
    assert.deepEqual(menu.map((c) => c.command), [...builtIns, 'long_one', 'my_skill']);
    assert.equal(menu.find((c) => c.command === 'status')?.description, 'What the gateway is doing for this chat', 'the built-in keeps its entry');
    assert.equal(menu.find((c) => c.command === 'long_one')?.description.length, 256);
    fake.pushMessage({ chat: dm, from: owner, text: '/skills' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.startsWith('Skills (2)')), timeoutMs: 10_000 });
    const listed = fake.chatMessages(dm.id).find((m) => m.shown.startsWith('Skills (2)'))?.shown ?? '';
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
