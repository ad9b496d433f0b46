import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ToolError } from '../../../src/core/errors.js';
import { writeSkill } from '../../helpers/skills.js';
import { skillsRig } from './support.js';

const live = (): AbortSignal => new AbortController().signal;

async function refused(promise: Promise<string>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof ToolError && pattern.test(error.message));
}

test('list gives name, category and description of every usable skill, by category, and counts the broken ones', async () => {
  const rig = skillsRig();
  try {
    assert.match(await rig.skills.list({ signal: live() }), /^No skills yet/);
    writeSkill({ dir: rig.dir, name: 'deploy-staging', category: 'devops', description: 'Deploy to staging' });
    writeSkill({ dir: rig.dir, name: 'weekly-report', description: 'Write the weekly report' });
    mkdirSync(path.join(rig.dir, 'bad'), { recursive: true });
    writeFileSync(path.join(rig.dir, 'bad', 'SKILL.md'), 'no front matter');
    const all = await rig.skills.list({ signal: live() });
    assert.equal(all, '2 skills (load one with skill_view):\n- weekly-report: Write the weekly report\n- deploy-staging [devops]: Deploy to staging\n(1 skill is broken on disk and left out; `hermes skills list` shows why.)');
    assert.match(await rig.skills.list({ category: 'devops', signal: live() }), /^1 skill .*\n- deploy-staging \[devops\]: Deploy to staging\n/);
    assert.match(await rig.skills.list({ category: 'nope', signal: live() }), /^No skills in category 'nope'\./);
  } finally {
    rig.close();
  }
});

test('view returns the body without the front matter, with the supporting files listed; file_path reads one of them', async () => {
  const rig = skillsRig();
  try {
    const dir = writeSkill({ dir: rig.dir, name: 'deploy-staging', category: 'devops', description: 'Deploy to staging', body: '# Deploy\n\nRun make deploy.\n' });
    assert.equal(await rig.skills.view({ name: 'deploy-staging', signal: live() }), '# Skill: deploy-staging\n\n# Deploy\n\nRun make deploy.');
    mkdirSync(path.join(dir, 'references'));
    writeFileSync(path.join(dir, 'references', 'hosts.md'), 'staging: 10.0.0.5\n');
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(path.join(dir, 'scripts', 'check.sh'), 'echo ok\n');
    const body = await rig.skills.view({ name: 'deploy-staging', signal: live() });
    assert.match(body, /Run make deploy\.\n\n---\nFiles of this skill \(read one with skill_view name="deploy-staging" file_path="\.\.\."\):\n- references\/hosts\.md\n- scripts\/check\.sh$/);
    assert.doesNotMatch(body, /description:/);
    assert.equal(await rig.skills.view({ name: 'deploy-staging', filePath: 'references/hosts.md', signal: live() }), 'staging: 10.0.0.5\n');
    await refused(rig.skills.view({ name: 'deploy-staging', filePath: 'references/none.md', signal: live() }), /File 'references\/none\.md' not found .*Files: references\/hosts\.md, scripts\/check\.sh/);
    await refused(rig.skills.view({ name: 'nope', signal: live() }), /Skill 'nope' not found\. Use skills_list/);
  } finally {
    rig.close();
  }
});

test('view refuses ../, absolute paths and symlinks out of the skill folder with a clear ToolError', async () => {
  const rig = skillsRig();
  try {
    const dir = writeSkill({ dir: rig.dir, name: 'deploy-staging', description: 'Deploy to staging' });
    writeSkill({ dir: rig.dir, name: 'other', description: 'Another skill', body: 'secret other body' });
    writeFileSync(path.join(rig.dir, '..', 'outside.txt'), 'outside the skills folder');
    await refused(rig.skills.view({ name: 'deploy-staging', filePath: '../other/SKILL.md', signal: live() }), /Path traversal \('\.\.'\) is not allowed/);
    await refused(rig.skills.view({ name: 'deploy-staging', filePath: 'references/../../../outside.txt', signal: live() }), /Path traversal/);
    await refused(rig.skills.view({ name: 'deploy-staging', filePath: path.join(rig.dir, 'other', 'SKILL.md'), signal: live() }), /not absolute/);
    symlinkSync(path.join(rig.dir, '..'), path.join(dir, 'references'));
    await refused(rig.skills.view({ name: 'deploy-staging', filePath: 'references/outside.txt', signal: live() }), /leads out of the skill's folder/);
    symlinkSync(path.join(rig.dir, '..', 'outside.txt'), path.join(dir, 'link.txt'));
    await refused(rig.skills.view({ name: 'deploy-staging', filePath: 'link.txt', signal: live() }), /leads out of the skill's folder/);
  } finally {
    rig.close();
  }
});

test('view of a skill that is broken on disk says why', async () => {
  const rig = skillsRig();
  try {
    mkdirSync(path.join(rig.dir, 'half'), { recursive: true });
    writeFileSync(path.join(rig.dir, 'half', 'SKILL.md'), '---\nname: half\n---\nbody');
    await refused(rig.skills.view({ name: 'half', signal: live() }), /Skill 'half' is broken on disk \(front matter has no description\)/);
  } finally {
    rig.close();
  }
});

test('view of a file that is not UTF-8 text says so instead of putting mojibake in the context; a folder is no file', async () => {
  const rig = skillsRig();
  try {
    const dir = writeSkill({ dir: rig.dir, name: 'logo-kit', description: 'Brand assets' });
    mkdirSync(path.join(dir, 'assets', 'fonts'), { recursive: true });
    // A Latin-1 / JPEG-like byte run without any NUL byte.
    writeFileSync(path.join(dir, 'assets', 'logo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x4a, 0x46, 0x49, 0x46, 0xe9, 0xe8]));
    writeFileSync(path.join(dir, 'assets', 'notes.md'), 'Café colours: #ff0000\n');
    assert.equal(await rig.skills.view({ name: 'logo-kit', filePath: 'assets/logo.jpg', signal: live() }), "'assets/logo.jpg' is a binary file (10 bytes); its content is not shown.");
    assert.equal(await rig.skills.view({ name: 'logo-kit', filePath: 'assets/notes.md', signal: live() }), 'Café colours: #ff0000\n');
    await refused(rig.skills.view({ name: 'logo-kit', filePath: 'assets/fonts', signal: live() }), /'assets\/fonts' is not a file of skill 'logo-kit'/);
  } finally {
    rig.close();
  }
});
