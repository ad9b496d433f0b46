import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gatewayCommandWords } from '../../../src/core/commands.js';
import { skillsCapability } from '../../../src/skills/capability.js';
import { installSkill } from '../../../src/skills/install.js';
import { skillText } from '../../helpers/skills.js';

/** Whether skill_manage create (with the gateway's reserved words) accepts `name` in `category`. */
async function toolAccepts(params: { root: string; name: string; category?: string }): Promise<boolean> {
  const dir = path.join(params.root, 'tool-skills');
  const skills = skillsCapability({ dir, reservedNames: gatewayCommandWords });
  try {
    await skills.manage({ action: 'create', name: params.name, ...(params.category ? { category: params.category } : {}), content: skillText({ name: params.name, description: 'A skill' }), signal: new AbortController().signal });
    return true;
  } catch {
    return false;
  }
}

/** Whether `hermes skills install` of a folder whose SKILL.md is called `name` accepts it into `category`. */
async function installAccepts(params: { root: string; name: string; category?: string }): Promise<boolean> {
  const source = mkdtempSync(path.join(params.root, 'src-'));
  writeFileSync(path.join(source, 'SKILL.md'), skillText({ name: params.name, description: 'A skill' }));
  const result = await installSkill({
    source,
    skillsDir: path.join(params.root, 'cli-skills'),
    cacheDir: path.join(params.root, 'cache'),
    force: false,
    reserved: gatewayCommandWords,
    ...(params.category ? { category: params.category } : {}),
  });
  return result.ok;
}

test('skill_manage and hermes skills install accept and refuse exactly the same names and categories', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-names-'));
  try {
    const cases: { name: string; category?: string; ok: boolean }[] = [
      { name: 'deploy-site', ok: true },
      { name: 'k8s2', ok: true },
      { name: '1password', ok: true },
      { name: 'my_skill', ok: false },
      { name: 'a.b', ok: false },
      { name: 'a--b', ok: false },
      { name: 'trailing-', ok: false },
      { name: 'Deploy', ok: false },
      { name: 'x'.repeat(65), ok: false },
      { name: 'start', ok: false },
      { name: 'skills', ok: false },
      { name: 'reset', ok: false },
      { name: 'axolotl', category: 'mlops/training', ok: true },
      { name: 'nested-too-deep', category: 'a/b/c', ok: false },
      { name: 'dots-up', category: '../up', ok: false },
      { name: 'under-cat', category: 'my_cat', ok: false },
    ];
    for (const c of cases) {
      const tool = await toolAccepts({ root, name: c.name, ...(c.category ? { category: c.category } : {}) });
      const cli = await installAccepts({ root, name: c.name, ...(c.category ? { category: c.category } : {}) });
      assert.equal(tool, c.ok, `skill_manage on ${c.category ?? ''}/${c.name}`);
      assert.equal(cli, c.ok, `install of ${c.category ?? ''}/${c.name}`);
    }
    assert.ok(existsSync(path.join(root, 'tool-skills', 'mlops', 'training', 'axolotl', 'SKILL.md')), 'a nested category is created as two folders');
    assert.ok(existsSync(path.join(root, 'cli-skills', 'mlops', 'training', 'axolotl', 'SKILL.md')));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('every word the gateway reads as a command is reserved (names and aliases)', () => {
  for (const word of ['new', 'reset', 'stop', 'status', 'memory', 'compress', 'skills', 'cron', 'sethome', 'approve', 'deny', 'help', 'start']) assert.ok(gatewayCommandWords.includes(word), word);
});
