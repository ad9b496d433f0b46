import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../../src/cli/main.js';
import { captureIO, cli } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-skills-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };
const SECRET = 'tok-5a4b3c2d1e0f9876';

/** A profile with a config, a .env holding one secret, and these files under skills/ (relative path → text). */
function profile(name: string, skills: Record<string, string>): string {
  const dir = path.join(home, 'profiles', name);
  mkdirSync(path.join(dir, 'skills'), { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), 'gateway:\n  busy_policy: queue\n');
  writeFileSync(path.join(dir, '.env'), `SOME_TOKEN=${SECRET}\n`);
  for (const [rel, text] of Object.entries(skills)) {
    mkdirSync(path.dirname(path.join(dir, 'skills', rel)), { recursive: true });
    writeFileSync(path.join(dir, 'skills', rel), text);
  }
  return path.join(dir, 'skills');
}

const good =
  '---\nname: deploy-site\ndescription: Deploys the site to staging and checks that the health endpoint answers; use it whenever the owner asks for a staging deploy of any branch\nversion: 2.1.0\ntags: [deploy, web]\nplatforms: [linux, telegram]\n---\n# Steps\n1. make deploy\n';
const broken = '---\nname: half-done\n---\nno description\n';

test('hermes skills list shows each skill on one line, then the broken ones with their reason, and the counts', async () => {
  profile('list', { 'devops/deploy-site/SKILL.md': good, 'half-done/SKILL.md': broken, 'notes/SKILL.md': `---\nname: notes\ndescription: Key ${SECRET}\n---\nx\n` });
  const res = await cli({ argv: ['-p', 'list', 'skills', 'list'], env });
  assert.equal(res.code, 0, res.stderr);
  const lines = res.stdout.split('\n');
  assert.match(lines[0] ?? '', /^NAME\s+CATEGORY\s+VERSION\s+DESCRIPTION$/);
  assert.match(res.stdout, /^deploy-site\s+devops\s+2\.1\.0\s+Deploys the site to staging and checks that the health endpoint answers…$/m);
  assert.match(res.stdout, /^notes\s+-\s+-\s+Key \*\*\*$/m, 'the secret is masked');
  assert.ok(!res.stdout.includes(SECRET));
  assert.match(res.stdout, /broken \(left out of the prompt; fix or delete them\):\n  half-done\/SKILL\.md: front matter has no description\n/);
  assert.match(res.stdout, /\n2 skills, 1 broken\n$/);
  const empty = await cli({ argv: ['-p', 'list-empty', 'skills', 'list'], env: (profile('list-empty', {}), env) });
  assert.equal(empty.code, 0);
  assert.match(empty.stdout, /no skills in .*skills\n\n0 skills, 0 broken\n$/);
  const missing = await cli({ argv: ['-p', 'nosuch', 'skills', 'list'], env });
  assert.equal(missing.code, 66);
});

test('hermes skills show prints the front matter, the supporting files and the body; an unknown name exits 1 with close names', async () => {
  profile('show', { 'devops/deploy-site/SKILL.md': good, 'devops/deploy-site/references/hosts.md': 'staging\n', 'devops/deploy-site/scripts/check.sh': 'curl -f localhost\n', 'half-done/SKILL.md': broken });
  const res = await cli({ argv: ['-p', 'show', 'skills', 'show', 'deploy-site'], env });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^name: {8}deploy-site\ndescription: Deploys the site to staging .* any branch\nversion: {5}2\.1\.0\ntags: {8}deploy, web\nplatforms: {3}linux, telegram\ncategory: {4}devops\npath: {8}.*devops\/deploy-site\/SKILL\.md\nfiles:\n  references\/hosts\.md \(8 bytes\)\n  scripts\/check\.sh \(18 bytes\)\n\n# Steps\n1\. make deploy\n$/);
  const typo = await cli({ argv: ['-p', 'show', 'skills', 'show', 'deploy-sight'], env });
  assert.equal(typo.code, 1);
  assert.equal(typo.stdout, '');
  assert.match(typo.stderr, /error: no skill "deploy-sight"\nhint: did you mean deploy-site\?/);
  const far = await cli({ argv: ['-p', 'show', 'skills', 'show', 'zzz'], env });
  assert.equal(far.code, 1);
  assert.match(far.stderr, /hint: `hermes skills list` shows the skills/);
  const half = await cli({ argv: ['-p', 'show', 'skills', 'show', 'half-done'], env });
  assert.equal(half.code, 1);
  assert.match(half.stderr, /skill half-done is broken \(skills\/half-done\/SKILL\.md\): front matter has no description/);
});

test('hermes skills delete --yes removes the folder and its emptied category; a broken skill can be deleted too', async () => {
  const skills = profile('delete', { 'devops/deploy-site/SKILL.md': good, 'devops/deploy-site/references/a.md': 'a', 'half-done/SKILL.md': broken, 'keep/other/SKILL.md': good.replace('deploy-site', 'other') });
  const res = await cli({ argv: ['-p', 'delete', 'skills', 'delete', 'deploy-site', '--yes'], env });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /deleted skill deploy-site \(skills\/devops\/deploy-site\)/);
  assert.ok(!existsSync(path.join(skills, 'devops')), 'the emptied category folder stays');
  const brokenOne = await cli({ argv: ['-p', 'delete', 'skills', 'delete', 'half-done', '--yes'], env });
  assert.equal(brokenOne.code, 0, brokenOne.stderr);
  assert.deepEqual(readdirSync(skills), ['keep']);
  const unknown = await cli({ argv: ['-p', 'delete', 'skills', 'delete', 'nothing', '--yes'], env });
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no skill "nothing"/);
});

test('hermes skills delete refuses without a terminal and without --yes, and asks on a terminal', async () => {
  const skills = profile('ask', { 'deploy-site/SKILL.md': good });
  const refused = await cli({ argv: ['-p', 'ask', 'skills', 'delete', 'deploy-site'], env, stdin: 'y\n' });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /not deleting skills\/deploy-site without confirmation: pass --yes/);
  assert.ok(existsSync(path.join(skills, 'deploy-site', 'SKILL.md')));
  const tty = async (answer: string): Promise<{ code: number; stdout: string; stderr: string }> => {
    const captured = captureIO({ env, stdin: answer });
    const code = await runCli({ argv: ['-p', 'ask', 'skills', 'delete', 'deploy-site'], io: { ...captured.io, isTTY: true } });
    return { code, stdout: captured.stdout(), stderr: captured.stderr() };
  };
  const no = await tty('n\n');
  assert.equal(no.code, 1);
  assert.match(no.stdout, /Delete skill deploy-site \(.*deploy-site\)\? \[y\/N\] /);
  assert.match(no.stderr, /aborted: not confirmed; nothing was deleted/);
  assert.ok(existsSync(path.join(skills, 'deploy-site')));
  const yes = await tty('y\n');
  assert.equal(yes.code, 0, yes.stderr);
  assert.ok(!existsSync(path.join(skills, 'deploy-site')));
});

test('hermes skills delete removes only the link of a symlinked skill folder, and refuses one behind a symlinked category', async () => {
  const skills = profile('links', {});
  const outside = mkdtempSync(path.join(home, 'outside-'));
  mkdirSync(path.join(outside, 'linked'));
  writeFileSync(path.join(outside, 'linked', 'SKILL.md'), good.replace('deploy-site', 'linked'));
  symlinkSync(path.join(outside, 'linked'), path.join(skills, 'linked'));
  const res = await cli({ argv: ['-p', 'links', 'skills', 'delete', 'linked', '--yes'], env });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /removed the symlink skills\/linked/);
  assert.ok(!existsSync(path.join(skills, 'linked')));
  assert.ok(existsSync(path.join(outside, 'linked', 'SKILL.md')), 'the link target was deleted');
  symlinkSync(outside, path.join(skills, 'elsewhere'));
  const behind = await cli({ argv: ['-p', 'links', 'skills', 'delete', 'linked', '--yes'], env });
  assert.equal(behind.code, 1);
  assert.match(behind.stderr, /skills\/elsewhere\/linked lies outside .* \(through a symlinked folder\); nothing was deleted/);
  assert.ok(existsSync(path.join(outside, 'linked', 'SKILL.md')));
});
