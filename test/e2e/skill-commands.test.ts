import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';

/** Writes skills/<rel>/SKILL.md with the given front matter lines and body. */
function writeSkill(params: { h: Harness; rel: string; front: string; body: string }): void {
  const dir = path.join(params.h.profile.skillsDir, params.rel);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), `---\n${params.front}\n---\n${params.body}\n`);
}

/** The content of the last user message of a recorded model request. */
function lastUserText(params: { h: Harness; request: number }): string {
  const messages = params.h.fake.requests[params.request]?.body.messages ?? [];
  return String(messages.filter((m) => m['role'] === 'user').at(-1)?.['content'] ?? '');
}

const deployBody = '# Deploy\n\n1. Run `make release`.\n2. Tag the commit with the version.';

test('/my-skill do it runs a normal turn whose model request holds the skill body and the text; the history keeps what the model saw', async () => {
  const h = await startHarness();
  try {
    // Written after the gateway started: skills are read per command.
    writeSkill({ h, rel: 'devops/my-skill', front: 'name: my-skill\ndescription: Deploys the app', body: deployBody });
    h.fake.enqueue({ text: 'Deployed.' });
    await h.adapter.inject({ text: '/my-skill do it for v2' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1, 'the skill command ran a turn');
    assert.equal(h.adapter.shown().at(-1)?.text, 'Deployed.');
    const sent = lastUserText({ h, request: 0 });
    assert.match(sent, /The user ran the skill "my-skill"/);
    assert.ok(sent.includes(deployBody), sent);
    assert.match(sent, /do it for v2$/);
    assert.doesNotMatch(sent, /^\/my-skill/);
    // Without text the skill still runs, told to carry it out as written.
    h.fake.enqueue({ text: 'Done again.' });
    await h.adapter.inject({ text: '/my-skill@hermes_bot' });
    await h.runner.waitIdle();
    const bare = lastUserText({ h, request: 1 });
    assert.ok(bare.includes(deployBody));
    assert.match(bare, /no further text/);
    // The stored history shows the expanded text (what the model saw), as the next request's history carries it.
    const history = (h.fake.requests[1]?.body.messages ?? []).filter((m) => m['role'] === 'user').map((m) => String(m['content']));
    assert.equal(history.length, 2);
    assert.equal(history[0], sent);
  } finally {
    await h.stop();
  }
});

test('/skills lists the skills usable here by category, counts the others and the broken ones, and says how to run one; no model call', async () => {
  const h = await startHarness();
  try {
    await h.adapter.inject({ text: '/skills' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^No skills yet: /);
    writeSkill({ h, rel: 'devops/deploy-app', front: 'name: deploy-app\ndescription: Deploys the app to staging', body: deployBody });
    writeSkill({ h, rel: 'devops/rotate-logs', front: 'name: rotate-logs\ndescription: Rotates the logs', body: 'Rotate.' });
    writeSkill({ h, rel: 'notes', front: 'name: notes\ndescription: Takes meeting notes', body: 'Write notes.' });
    writeSkill({ h, rel: 'slack-only', front: 'name: slack-only\ndescription: Posts to Slack\nplatforms: [slack]', body: 'Post.' });
    writeSkill({ h, rel: 'broken-one', front: 'name: broken-one', body: 'No description.' });
    await h.adapter.inject({ text: '/skills' });
    await h.runner.waitIdle();
    const reply = h.adapter.shown().at(-1)?.text ?? '';
    assert.match(reply, /^Skills \(3\):\n\/notes — Takes meeting notes\n\[devops\]\n\/deploy-app — Deploys the app to staging\n\/rotate-logs — Rotates the logs\n/);
    assert.doesNotMatch(reply, /slack-only/);
    assert.match(reply, /1 more skill is for other platforms/);
    assert.match(reply, /1 skill is broken and left out \(details: hermes skills list\)/);
    assert.match(reply, /Run one: \/notes \[what you want\]/);
    assert.equal(h.fake.requests.length, 0, 'the model was called');
  } finally {
    await h.stop();
  }
});

test('an unknown /word that is no skill keeps the help reply (now naming /skills); a built-in command wins over a skill of its name', async () => {
  const h = await startHarness();
  try {
    writeSkill({ h, rel: 'status', front: 'name: status\ndescription: A copied skill named like a command', body: 'Say hello.' });
    await h.adapter.inject({ text: '/frobnicate now' });
    await h.runner.waitIdle();
    const unknown = h.adapter.shown().at(-1)?.text ?? '';
    assert.match(unknown, /^Unknown command \/frobnicate/);
    assert.match(unknown, /\/skills — /);
    assert.match(unknown, /a built-in command always wins over a skill of the same name/);
    await h.adapter.inject({ text: '/status' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Session: /);
    await h.adapter.inject({ text: '/skills' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^No skills yet/, 'a skill no command can reach is not listed');
    await h.adapter.inject({ text: '/help' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /built-in command always wins/);
    assert.equal(h.fake.requests.length, 0, 'the model was called');
  } finally {
    await h.stop();
  }
});

test('a skill for another platform, and a broken one, are refused on the control lane with the reason', async () => {
  const h = await startHarness();
  try {
    writeSkill({ h, rel: 'slack-only', front: 'name: slack-only\ndescription: Posts to Slack\nplatforms: [slack]', body: 'Post.' });
    writeSkill({ h, rel: 'half-done', front: 'name: half-done', body: 'No description.' });
    await h.adapter.inject({ text: '/slack-only go' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'The skill slack-only does not run here (test): it is for slack.');
    await h.adapter.inject({ text: '/half-done' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^The skill half-done cannot run: front matter has no description\./);
    assert.equal(h.fake.requests.length, 0, 'the model was called');
  } finally {
    await h.stop();
  }
});

test('a /my-skill turn cut short by a restart is replayed with the same user text', async () => {
  const h = await startHarness({ config: { gateway: { drain_timeout: '300ms' }, stream: { edit_interval: '250ms' } } });
  try {
    writeSkill({ h, rel: 'my-skill', front: 'name: my-skill\ndescription: Deploys the app', body: deployBody });
    h.fake.enqueue({ chunks: ['Half ', 'an ', 'answer'], hangAfterChunks: 3 }, { text: 'Half an answer, now complete.' });
    await h.adapter.inject({ text: '/my-skill do it' });
    await h.adapter.waitFor({ predicate: () => (h.adapter.shown()[0]?.text ?? '').includes('answer'), what: 'partial reply' });
    await h.runner.stop();
    await h.restart();
    await h.adapter.waitFor({ predicate: () => h.adapter.shown()[0]?.text === 'Half an answer, now complete.', what: 'the reply finished in place' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    const first = lastUserText({ h, request: 0 });
    assert.ok(first.includes(deployBody));
    assert.equal(lastUserText({ h, request: 1 }), first);
    const users = (h.fake.requests[1]?.body.messages ?? []).filter((m) => m['role'] === 'user');
    assert.equal(users.length, 1, 'the replayed request carries the message once');
  } finally {
    await h.stop();
  }
});
