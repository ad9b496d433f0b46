import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness } from '../helpers/harness.js';
import { loadSkills } from '../../src/skills/load.js';

/** The system message of a captured request. */
const systemOf = (request: CapturedRequest | undefined): string => String(request?.body.messages?.[0]?.['content']);

/** The tool results a request carries, in order. */
const toolResults = (request: CapturedRequest | undefined): string[] => (request?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));

/** The last user message of a request. */
const lastUser = (request: CapturedRequest | undefined): string => String((request?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content']);

/**
 * Hermes Agent's SKILL.md shape as its skills/ folder ships them: nested categories, author/license/dependencies,
 * `metadata.hermes.tags`, `prerequisites`, a quoted description with a colon; this one saved on Windows (BOM, CRLF).
 */
const axolotl = [
  '\uFEFF---',
  'name: axolotl',
  'description: "Fine-tune LLMs with Axolotl: YAML configs, LoRA/QLoRA, DPO/KTO/GRPO"',
  'version: 1.0.0',
  'author: Orchestra Research',
  'license: MIT',
  'dependencies: [axolotl, torch, transformers]',
  'metadata:',
  '  hermes:',
  '    tags: [Fine-Tuning, Axolotl, LoRA]',
  '    related_skills: [unsloth]',
  'prerequisites:',
  '  commands: [python3]',
  '  env_vars: [HF_TOKEN]',
  'platforms: [linux, macos, windows]',
  '---',
  '',
  '# Axolotl',
  '',
  'AXOLOTL-BODY: run `axolotl train config.yml` and watch the loss.',
  '',
].join('\r\n');

const prWorkflow = [
  '---',
  'name: github-pr-workflow',
  "description: 'Full PR lifecycle: create branches, commit, open PRs, \"monitor\" CI'",
  'version: 1.1.0',
  'author: Hermes Agent',
  'metadata:',
  '  hermes:',
  '    tags: [GitHub, Pull-Requests]',
  '---',
  '# GitHub PR workflow',
  '',
  'PR-BODY: open the PR with `gh pr create --fill`.',
  '',
].join('\n');

/** A skill for another operating system (Hermes's `platforms` names OSes). */
const otherOs = process.platform === 'darwin' ? 'windows' : 'macos';
const imessage = `---\nname: imessage\ndescription: Send iMessages\nplatforms: [${otherOs}]\n---\nIMESSAGE-BODY\n`;

test('skills copied from a Hermes install work unchanged: nested category, extra keys, BOM + CRLF, a quoted description with a colon; OS platforms filter', async () => {
  const h = await startHarness();
  try {
    const skills = h.profile.skillsDir;
    const put = (rel: string, text: string): void => {
      mkdirSync(path.join(skills, rel), { recursive: true });
      writeFileSync(path.join(skills, rel, 'SKILL.md'), text);
    };
    put('mlops/training/axolotl', axolotl);
    mkdirSync(path.join(skills, 'mlops/training/axolotl/references'), { recursive: true });
    writeFileSync(path.join(skills, 'mlops/training/axolotl/references/config.md'), 'base_model: llama\r\n');
    put('github/github-pr-workflow', prWorkflow);
    put('apple/imessage', imessage);
    const catalog = loadSkills({ dir: skills });
    assert.deepEqual(catalog.broken, []);
    assert.deepEqual(catalog.skills.find((s) => s.meta.name === 'axolotl')?.meta.tags, ['Fine-Tuning', 'Axolotl', 'LoRA'], 'metadata.hermes.tags');

    h.fake.enqueue(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'axolotl' } }, { name: 'skill_view', arguments: { name: 'axolotl', file_path: 'references/config.md' } }] },
      { text: 'Training.' },
    );
    await h.adapter.inject({ text: 'fine-tune llama for me' });
    await h.runner.waitIdle();
    const system = systemOf(h.fake.requests[0]);
    assert.match(system, /- github-pr-workflow \[github\]: Full PR lifecycle: create branches, commit, open PRs, "monitor" CI\n/);
    assert.match(system, /- axolotl \[mlops\/training\]: Fine-tune LLMs with Axolotl: YAML configs, LoRA\/QLoRA, DPO\/KTO\/GRPO\n/);
    assert.doesNotMatch(system, /imessage/, 'a skill for another OS is in the index');
    assert.doesNotMatch(system, /AXOLOTL-BODY|PR-BODY|Orchestra|HF_TOKEN/, 'bodies or extra front matter keys are in the index');
    const [body, reference] = toolResults(h.fake.requests[1]);
    assert.match(body ?? '', /^# Skill: axolotl\n\n# Axolotl\r\n\r\nAXOLOTL-BODY: run `axolotl train config\.yml`/);
    assert.match(body ?? '', /- references\/config\.md/);
    assert.equal(reference, 'base_model: llama\r\n');

    h.fake.enqueue({ text: 'PR opened.' });
    await h.adapter.inject({ text: '/github-pr-workflow for the fix branch' });
    await h.runner.waitIdle();
    const sent = lastUser(h.fake.requests[2]);
    assert.match(sent, /The user ran the skill "github-pr-workflow"/);
    assert.match(sent, /PR-BODY: open the PR with `gh pr create --fill`\./);
    assert.match(sent, /for the fix branch$/);

    await h.adapter.inject({ text: '/imessage hi mum' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /The skill imessage does not run here/);
    assert.equal(h.fake.requests.length, 3, 'the skill for another OS ran a turn');
  } finally {
    await h.stop();
  }
});
