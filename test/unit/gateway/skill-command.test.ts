import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { skillMenuCommands } from '../../../adapters/telegram/commands-menu.js';
import { skillCommandsFor } from '../../../src/app/platforms.js';
import { writeSkill } from '../../helpers/skills.js';
import type { Skill, SkillCatalog } from '../../../src/skills/types.js';
import { messageCommand, skillForCommand } from '../../../src/gateway/commands/skill-command.js';
import { SKILLS_LIST_MAX_CHARS, skillsListText } from '../../../src/gateway/commands/skill-list.js';

function skill(params: { name: string; category?: string; description?: string; platforms?: string[] }): Skill {
  const folder = `/skills/${params.category ? `${params.category}/` : ''}${params.name}`;
  return {
    meta: { name: params.name, description: params.description ?? `Does ${params.name}`, tags: [], platforms: params.platforms ?? [] },
    category: params.category ?? null,
    dir: folder,
    file: `${folder}/SKILL.md`,
    body: `Body of ${params.name}.`,
  };
}

const catalogOf = (skills: Skill[]): SkillCatalog => ({ skills, broken: [] });

describe('skill commands', () => {
  test('/my_skill finds my-skill, unless a skill is named my_skill itself', () => {
    const dashed = skill({ name: 'my-skill' });
    assert.equal(skillForCommand({ catalog: catalogOf([dashed]), name: 'my_skill' }), dashed);
    const underscored = skill({ name: 'my_skill' });
    assert.equal(skillForCommand({ catalog: catalogOf([dashed, underscored]), name: 'my_skill' }), underscored);
    assert.equal(skillForCommand({ catalog: catalogOf([dashed]), name: 'other' }), undefined);
  });

  test('a built-in command is decided before the skills are read', () => {
    const catalog = (): SkillCatalog => {
      throw new Error('the skills were read for a built-in command');
    };
    assert.deepEqual(messageCommand({ text: '/status', platform: 'test', catalog }), { kind: 'command', name: 'status', args: '' });
    assert.deepEqual(messageCommand({ text: 'hello', platform: 'test', catalog }), { kind: 'none' });
  });

  test('/skills stays under its cap with 200 skills and says how many more', () => {
    const skills = Array.from({ length: 200 }, (_, i) => skill({ name: `skill-${String(i).padStart(3, '0')}`, category: `cat-${i % 7}`, description: 'x'.repeat(300) }));
    skills.sort((a, b) => (a.category ?? '').localeCompare(b.category ?? '') || a.meta.name.localeCompare(b.meta.name));
    const text = skillsListText({ catalog: catalogOf(skills), platform: 'sms' });
    assert.ok(text.length <= SKILLS_LIST_MAX_CHARS, `${text.length} chars`);
    const shown = text.split('\n').filter((line) => line.startsWith('/skill-')).length;
    assert.ok(shown > 0);
    assert.match(text, new RegExp(`… and ${200 - shown} more \\(hermes skills list shows them all\\)`));
    assert.match(text, /^Skills \(200\):/);
    assert.ok(text.split('\n').every((line) => line.length < 200), 'descriptions are shortened');
  });

  test('a hand-made skill named like a built-in alias (/reset, /start) is left out of /skills and the Telegram menu: the built-in wins', () => {
    const catalog = catalogOf([skill({ name: 'reset' }), skill({ name: 'start' }), skill({ name: 'help' }), skill({ name: 'deploy-site' })]);
    const text = skillsListText({ catalog, platform: 'telegram' });
    assert.match(text, /^Skills \(1\):/);
    assert.match(text, /\/deploy_site — Does deploy-site/);
    assert.doesNotMatch(text, /\/(reset|start|help) — /);
    const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-menu-'));
    try {
      for (const name of ['reset', 'start', 'deploy-site']) writeSkill({ dir: root, name, description: `Does ${name}` });
      assert.deepEqual(skillMenuCommands({ skills: skillCommandsFor({ dir: root, platform: 'telegram' }) }).map((c) => c.command), ['deploy_site']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a command after leading spaces (how Slack users get a /word past the Slack client) is read the same', () => {
    const catalog = (): SkillCatalog => catalogOf([skill({ name: 'deploy-site' })]);
    assert.deepEqual(messageCommand({ text: ' /deploy-site staging', platform: 'slack', catalog }), { kind: 'skill', name: 'deploy-site', args: 'staging' });
    assert.equal(messageCommand({ text: '  /new', platform: 'slack', catalog }).kind, 'command');
  });
});
