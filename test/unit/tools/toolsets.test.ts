import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { LEAN_TOOLSETS, ToolsetPolicy } from '../../../src/tools/toolsets.js';
import { resolveProfile } from '../../../src/home/index.js';
import { cli } from '../../helpers/cli.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';
import { validateConfig } from '../../../src/config/validate.js';

const base = new ToolRegistry({ tools: builtinTools({ memory: true, skills: true, cron: true }) });
const names = (registry: ToolRegistry): string[] => registry.list().map((tool) => tool.name);

test('tool sets: a platform\'s own list wins, then toolsets, then (small context) the lean default, else every tool; registries are made once per set of sets', () => {
  let context: number | undefined = 128_000;
  const policy = new ToolsetPolicy({ toolsets: undefined, platforms: { sms: ['memory', 'mcp-notes'] }, contextTokens: () => context });
  assert.equal(policy.registryFor({ base, platform: 'telegram' }), base, 'every tool: the agent\'s own registry');
  assert.deepEqual(names(policy.registryFor({ base, platform: 'sms' })), ['memory']);
  assert.equal(policy.registryFor({ base, platform: 'sms' }), policy.registryFor({ base, platform: 'sms' }));
  assert.equal(policy.mcpWanted({ platform: 'sms', server: 'notes' }), true);
  assert.equal(policy.mcpWanted({ platform: 'sms', server: 'github' }), false);
  assert.equal(policy.mcpWanted({ platform: 'telegram', server: 'github' }), true);
  context = 8_192;
  assert.deepEqual(policy.setsFor({ platform: 'telegram' }), { sets: new Set(LEAN_TOOLSETS), source: 'lean default' });
  assert.deepEqual(names(policy.registryFor({ base, platform: 'telegram' })), ['read_file', 'write_file', 'patch', 'search_files', 'terminal', 'session_search', 'clarify', 'memory']);
  assert.equal(policy.mcpWanted({ platform: 'telegram', server: 'github' }), false, 'the lean default has no MCP servers');
  const chosen = new ToolsetPolicy({ toolsets: ['skills', 'mcp'], platforms: {}, contextTokens: () => 8_192 });
  assert.deepEqual(names(chosen.registryFor({ base, platform: 'telegram' })), ['skills_list', 'skill_view', 'skill_manage']);
  assert.equal(chosen.mcpWanted({ platform: 'telegram', server: 'github' }), true);
});

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-tools-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

test('hermes tools list / enable / disable [--platform]: lists each set on or off; edits toolsets or platform_toolsets keeping the file\'s comments; refuses a name that is no set', async () => {
  assert.equal((await cli({ argv: ['profile', 'create', 'work'], env })).code, 0);
  const profile = resolveProfile({ hermesHome: home, name: 'work' });
  writeFileSync(profile.configPath, `${readFileSync(profile.configPath, 'utf8')}\n# my own note\n`);
  const listed = await cli({ argv: ['-p', 'work', 'tools', 'list'], env });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^Tool sets on every platform \(the default: every tool\):\n✓ file: read_file, write_file, patch, search_files\n/);
  assert.match(listed.stdout, /^✓ code_execution: execute_code$/m);
  assert.match(listed.stdout, /^✓ web: web_extract$/m);
  assert.match(listed.stdout, /^✓ vision: no tools here$/m);

  const off = await cli({ argv: ['-p', 'work', 'tools', 'disable', 'delegation', 'code_execution', '--platform', 'sms'], env });
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stdout, /^platform_toolsets\.sms: \[file, terminal, search, session_search, web, skills, cronjob, memory, messaging, clarify, vision, mcp\]/);
  const sms = await cli({ argv: ['-p', 'work', 'tools', 'list', '--platform', 'sms'], env });
  assert.match(sms.stdout, /^Tool sets on sms \(platform_toolsets\.sms in config\.yaml\):/);
  assert.match(sms.stdout, /^✗ delegation: delegate_task$/m);
  assert.match(sms.stdout, /^✓ terminal: terminal$/m);
  const everywhere = await cli({ argv: ['-p', 'work', 'tools', 'list'], env });
  assert.match(everywhere.stdout, /^sms has its own: file, terminal/m);

  const only = await cli({ argv: ['-p', 'work', 'tools', 'disable', 'all'], env });
  assert.equal(only.code, 0, only.stderr);
  const on = await cli({ argv: ['-p', 'work', 'tools', 'enable', 'memory', 'mcp-notes'], env });
  assert.match(on.stdout, /^toolsets: \[memory, mcp-notes\]/, 'disable all leaves none; enable adds to that');
  const text = readFileSync(profile.configPath, 'utf8');
  assert.match(text, /# my own note/, 'the owner\'s comment was lost');

  const bad = await cli({ argv: ['-p', 'work', 'tools', 'enable', 'browser'], env });
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /not a tool set: browser/);
  assert.equal(readFileSync(profile.configPath, 'utf8'), text, 'a refused change wrote the file');
  const badPlatform = await cli({ argv: ['-p', 'work', 'tools', 'list', '--platform', 'pager'], env });
  assert.equal(badPlatform.code, 64);
  assert.match(badPlatform.stderr, /unknown platform "pager"/);
});

test('config: toolsets and platform_toolsets take known set names (any platform name: a host program may add its own); a set name typo is an error naming the choices', async () => {
  const schema = await appConfigSchema();
  const parsed = validateConfig({ schema, tree: { toolsets: ['file', 'mcp-notes'], platform_toolsets: { terminal: ['all'], sms: ['memory'] } }, file: 'config.yaml' }).config;
  assert.deepEqual(parsed.toolsets, ['file', 'mcp-notes']);
  assert.deepEqual(parsed.platform_toolsets, { terminal: ['all'], sms: ['memory'] });
  assert.throws(() => validateConfig({ schema, tree: { platform_toolsets: { sms: ['memroy'] } }, file: 'config.yaml' }), /platform_toolsets\.sms\[0\]: expected a tool set: all, file, terminal, [^\n]*, found "memroy"/);
  assert.throws(() => validateConfig({ schema, tree: { toolsets: ['browser'] }, file: 'config.yaml' }), /a tool set: all, file, terminal/);
});
