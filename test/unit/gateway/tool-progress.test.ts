import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Redactor } from '../../../src/log/redact.js';
import { MAX_ARG_CHARS, toolProgressLine } from '../../../src/gateway/turns/tool-progress-lines.js';
import { ToolProgress, type ToolProgressMode } from '../../../src/gateway/turns/tool-progress.js';
import { planReload } from '../../../src/app/reload-plan.js';
import type { AppConfig } from '../../../src/app/config-schema.js';
import { loadTempConfig } from '../config/temp-profile.js';
import { BUILTIN_TOOLS } from '../../../src/tools/builtin/index.js';
import type { ToolProgressLook } from '../../../src/tools/tool.js';

const noScrub = (text: string): string => text;
/** The built-in tools' looks (their definitions' `progress`), as a turn's registry gives them. */
const looks = (name: string): ToolProgressLook | undefined => BUILTIN_TOOLS.find((tool) => tool.name === name)?.progress;
const line = (name: string, args: Record<string, unknown> | string): string =>
  toolProgressLine({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args), look: looks(name), scrub: noScrub });

describe('toolProgressLine', () => {
  test('each known tool gets its emoji and argument', () => {
    assert.equal(line('terminal', { command: 'ls -la' }), '⚙ terminal: ls -la');
    assert.equal(line('read_file', { path: 'notes.md', offset: 3 }), '📖 read_file notes.md');
    assert.equal(line('write_file', { path: 'notes.md', content: 'x' }), '✍ write_file notes.md');
    assert.equal(line('search_files', { pattern: 'TODO' }), '🔎 search_files "TODO"');
    assert.equal(line('memory', { action: 'add', target: 'user', content: 'likes tea' }), '🧠 memory: add');
    assert.equal(line('session_search', { query: 'bank' }), '🔍 session_search "bank"');
    assert.equal(line('skill_view', { name: 'deploy' }), '📚 skill_view deploy');
    assert.equal(line('cronjob', { action: 'create', prompt: 'p' }), '⏰ cronjob create');
  });

  test('send_message shows its target, never the message', () => {
    assert.equal(line('send_message', { action: 'send', target: 'telegram:1001', message: 'the door code is 4711' }), '✉ send_message: telegram:1001');
    assert.equal(line('send_message', { action: 'list' }), '✉ send_message');
  });

  test('other tools get the generic look; missing or broken arguments leave the name alone', () => {
    assert.equal(line('probe_thing', { tag: 'a' }), '🔧 probe_thing');
    assert.equal(line('terminal', '{"command": '), '⚙ terminal');
    assert.equal(line('read_file', {}), '📖 read_file');
    assert.equal(line('read_file', { path: ['a'] }), '📖 read_file');
    assert.equal(line('terminal', { command: '   ' }), '⚙ terminal');
  });

  test('an argument is shown on one line and at most 60 characters', () => {
    const long = `cat <<'EOF' > out.txt\n${'x'.repeat(200)}\nEOF`;
    const shown = line('terminal', { command: long });
    assert.ok(!shown.includes('\n'), shown);
    const arg = shown.slice('⚙ terminal: '.length);
    assert.ok(Array.from(arg).length <= MAX_ARG_CHARS, `${Array.from(arg).length} characters`);
    assert.ok(arg.startsWith("cat <<'EOF' > out.txt xxx"), arg);
    assert.ok(arg.endsWith('…'));
  });

  test('a secret in an argument is scrubbed before it is cut (also one that starts before the cut)', () => {
    const secret = 'tok-7Yq2Lm9Pz4Kd8Wx1Rv6';
    const redactor = new Redactor({ secrets: [secret] });
    const scrub = (text: string): string => redactor.scrub(text);
    const whole = toolProgressLine({ name: 'terminal', arguments: JSON.stringify({ command: `curl -H "Authorization: ${secret}" x` }), look: looks('terminal'), scrub });
    assert.ok(!whole.includes(secret) && !whole.includes(secret.slice(0, 10)), whole);
    // The secret straddles the 60-character cut: its visible start must not survive either.
    const straddle = toolProgressLine({ name: 'terminal', arguments: JSON.stringify({ command: `${'a'.repeat(50)} ${secret}` }), look: looks('terminal'), scrub });
    assert.ok(!straddle.includes(secret.slice(0, 8)), straddle);
  });
});

/** A tracker whose sink records every update. */
function tracker(mode: ToolProgressMode, maxLines?: number): { progress: ToolProgress; updates: { lines: readonly string[]; added?: string }[] } {
  const updates: { lines: readonly string[]; added?: string }[] = [];
  const progress = new ToolProgress({ mode, scrub: noScrub, sink: { progress: (u) => updates.push(u) }, looks, ...(maxLines === undefined ? {} : { maxLines }) });
  return { progress, updates };
}

const call = (name: string, args: Record<string, unknown>): { name: string; arguments: string } => ({ name, arguments: JSON.stringify(args) });

describe('ToolProgress', () => {
  test('all: a line per call', () => {
    const { progress, updates } = tracker('all');
    progress.call(call('terminal', { command: 'ls' }));
    progress.call(call('terminal', { command: 'pwd' }));
    progress.call(call('read_file', { path: 'a.md' }));
    assert.deepEqual(progress.lines(), ['⚙ terminal: ls', '⚙ terminal: pwd', '📖 read_file a.md']);
    assert.deepEqual(updates.map((u) => u.added), ['⚙ terminal: ls', '⚙ terminal: pwd', '📖 read_file a.md']);
  });

  test('new: repeated calls of one tool share the first line, which counts them', () => {
    const { progress, updates } = tracker('new');
    progress.call(call('terminal', { command: 'ls' }));
    progress.call(call('terminal', { command: 'pwd' }));
    progress.call(call('terminal', { command: 'id' }));
    progress.call(call('read_file', { path: 'a.md' }));
    progress.call(call('terminal', { command: 'make' }));
    assert.deepEqual(progress.lines(), ['⚙ terminal: ls ×3', '📖 read_file a.md', '⚙ terminal: make']);
    // A repeat starts no line of its own (a terminal prints nothing new for it).
    assert.deepEqual(updates.map((u) => u.added), ['⚙ terminal: ls', undefined, undefined, '📖 read_file a.md', '⚙ terminal: make']);
    assert.deepEqual(updates[2]?.lines, ['⚙ terminal: ls ×3']);
  });

  test('off: nothing', () => {
    const { progress, updates } = tracker('off');
    progress.observe({ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } }] } });
    assert.equal(updates.length, 0);
  });

  test('only the last lines are kept', () => {
    const { progress } = tracker('all', 3);
    for (let i = 0; i < 10; i++) progress.call(call('terminal', { command: `step ${i}` }));
    assert.deepEqual(progress.lines(), ['⚙ terminal: step 7', '⚙ terminal: step 8', '⚙ terminal: step 9']);
  });

  test("observe reads an assistant message's tool calls and ignores other messages", () => {
    const { progress, updates } = tracker('all');
    progress.observe({ message: { role: 'tool', tool_call_id: 'c1', name: 'terminal', content: 'out' } });
    progress.observe({ message: { role: 'assistant', content: 'hello' } });
    assert.equal(updates.length, 0);
    progress.observe({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } },
          { id: 'c2', type: 'function', function: { name: 'skill_view', arguments: '{"name":"deploy"}' } },
        ],
      },
    });
    assert.deepEqual(progress.lines(), ['⚙ terminal: ls', '📚 skill_view deploy']);
  });
});

test('a reload applies display.tool_progress to the next turns (no restart)', async () => {
  const current: AppConfig = (await loadTempConfig('display:\n  tool_progress: new\n')).loaded.config;
  const next: AppConfig = { ...current, display: { ...current.display, tool_progress: 'off' } };
  const plan = planReload({ current, next });
  assert.deepEqual(plan.live, ['display.tool_progress']);
  assert.deepEqual(plan.restartNeeded, []);
});

describe('ToolProgress.childCall', () => {
  test("a delegate_task child's calls show as ↳ lines under its number; `new` counts a child's repeats; `off` shows none", () => {
    const shownFor = (mode: ToolProgressMode): string[] => {
      let lines: readonly string[] = [];
      const progress = new ToolProgress({ mode, scrub: (text) => text.replace('s3cret', '[REDACTED]'), sink: { progress: (p) => (lines = p.lines) }, looks });
      progress.call({ name: 'delegate_task', arguments: JSON.stringify({ goal: 'look around' }) });
      progress.childCall({ child: 'child 1/2', name: 'read_file', arguments: JSON.stringify({ path: 'notes.md' }) });
      progress.childCall({ child: 'child 1/2', name: 'read_file', arguments: JSON.stringify({ path: 'more.md' }) });
      progress.childCall({ child: 'child 2/2', name: 'terminal', arguments: JSON.stringify({ command: 'echo s3cret' }) });
      return [...lines];
    };
    assert.deepEqual(shownFor('new'), ['🤝 delegate_task: look around', '↳ child 1/2: read_file notes.md ×2', '↳ child 2/2: terminal: echo [REDACTED]']);
    assert.deepEqual(shownFor('all'), ['🤝 delegate_task: look around', '↳ child 1/2: read_file notes.md', '↳ child 1/2: read_file more.md', '↳ child 2/2: terminal: echo [REDACTED]']);
    assert.deepEqual(shownFor('off'), []);
  });
});
