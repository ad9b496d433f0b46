import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { globToRegExp } from '../../../src/tools/builtin/glob.js';
import type { Clock } from '../../../src/core/clock.js';
import { makeSandbox, type Sandbox } from './support.js';

/** A clock whose time moves `stepMs` every time it is read, calling `onRead` with the read count. */
function steppingClock(params: { stepMs: number; onRead?: (reads: number) => void }): Clock {
  let reads = 0;
  return {
    now: () => {
      reads += 1;
      params.onRead?.(reads);
      return reads * params.stepMs;
    },
    sleep: () => Promise.reject(new Error('not used')),
  };
}

describe('search_files', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
    const write = (rel: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(box.workspace, rel)), { recursive: true });
      fs.writeFileSync(path.join(box.workspace, rel), text);
    };
    write('src/a.ts', 'export const TODO = 1;\n// nothing\n');
    write('src/deep/b.ts', 'line\n  todo: fix me  \n');
    write('README.md', 'TODO write docs\n');
    write('node_modules/pkg/index.ts', 'TODO hidden\n');
    write('.git/config', 'TODO hidden\n');
  });
  afterEach(() => box.cleanup());

  test('returns file:line:text, filtered by glob, skipping node_modules and .git', async () => {
    const all = await box.call('search_files', { pattern: 'TODO' });
    assert.equal(all.content, 'README.md:1:TODO write docs\nsrc/a.ts:1:export const TODO = 1;');
    const ts = await box.call('search_files', { pattern: 'todo', glob: '**/*.ts', ignore_case: true });
    assert.equal(ts.content, 'src/a.ts:1:export const TODO = 1;\nsrc/deep/b.ts:2:todo: fix me');
    const scoped = await box.call('search_files', { pattern: 'todo', path: 'src/deep' });
    assert.equal(scoped.content, 'src/deep/b.ts:2:todo: fix me');
  });

  test('caps the number of matches, reports none, rejects bad regexes and paths outside', async () => {
    fs.writeFileSync(path.join(box.workspace, 'many.txt'), 'hit\n'.repeat(50));
    const capped = await box.call('search_files', { pattern: 'hit', max_results: 3 });
    assert.equal(capped.content.split('\n').length, 4);
    assert.match(capped.content, /Stopped at 3 matches/);
    assert.match((await box.call('search_files', { pattern: 'zzz' })).content, /^No matches for \/zzz\//);
    assert.match((await box.call('search_files', { pattern: '(' })).content, /not a valid regular expression/);
    assert.match((await box.call('search_files', { pattern: 'x', path: '..' })).content, /outside the workspace/);
  });
});

describe('search_files with hostile patterns and files', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
  });
  afterEach(() => box.cleanup());

  test('a catastrophic-backtracking pattern returns quickly', async () => {
    fs.writeFileSync(path.join(box.workspace, 'a.txt'), `${'a'.repeat(28)}!\n`.repeat(3));
    const started = performance.now();
    const result = await box.call('search_files', { pattern: '(a+)+$' });
    assert.ok(performance.now() - started < 1_000, `took ${Math.round(performance.now() - started)} ms`);
    assert.match(result.content, /^No matches for/);
    const insensitive = await box.call('search_files', { pattern: '(A+)+!$', ignore_case: true });
    assert.equal(insensitive.content.split('\n').length, 3);
  });

  test('lookaround, backreferences and large counts are refused with what to avoid', async () => {
    fs.writeFileSync(path.join(box.workspace, 'a.txt'), 'abab\n');
    const cases: [string, RegExp][] = [
      ['foo(?=bar)', /does not support lookahead/],
      ['(?<!x)ab', /does not support lookbehind/],
      ['(ab)\\1', /does not support backreferences/],
      ['a.{0,50}b', /does not support large counted repetitions such as \{0,50\}.*use \* or \+/],
    ];
    for (const [pattern, expected] of cases) {
      const result = await box.call('search_files', { pattern });
      assert.equal(result.isError, true, pattern);
      assert.match(result.content, expected, pattern);
    }
    assert.match((await box.call('search_files', { pattern: 'x'.repeat(501) })).content, /pattern: Too big/i);
  });

  test('only the first 10000 characters of a long line are searched, and the result says so', async () => {
    const long = `${'x'.repeat(5_000)}EARLY${'x'.repeat(10_000)}LATE`;
    fs.writeFileSync(path.join(box.workspace, 'min.js'), `${long}\nLATE short\n`);
    const early = await box.call('search_files', { pattern: 'EARLY' });
    assert.match(early.content, /^min\.js:1:x{300}…\n\[1 line\(s\) longer than 10000 characters were searched only/);
    const late = await box.call('search_files', { pattern: 'LATE' });
    assert.match(late.content, /^min\.js:2:LATE short\n\[1 line/);
  });

  test('an abort during a long file stops the search between lines', async () => {
    fs.writeFileSync(path.join(box.workspace, 'big.txt'), 'line\n'.repeat(10_000));
    const controller = new AbortController();
    let reads = 0;
    const clock = steppingClock({ stepMs: 25, onRead: (n) => { reads = n; if (n === 50) controller.abort(); } });
    const call = { id: 'c1', name: 'search_files', arguments: JSON.stringify({ pattern: 'zzz' }) };
    const result = await box.registry.execute({ call, ctx: { ...box.ctx, clock, signal: controller.signal } });
    assert.match(result.content, /^Interrupted/);
    assert.ok(reads < 60, `kept searching after the abort (${reads} clock reads)`);
  });

  test('a search that runs out of time returns what it found with a note', async () => {
    fs.writeFileSync(path.join(box.workspace, 'big.txt'), 'hit\n'.repeat(1_000));
    const clock = steppingClock({ stepMs: 1_000 });
    const call = { id: 'c1', name: 'search_files', arguments: JSON.stringify({ pattern: 'hit', max_results: 1_000 }) };
    const result = await box.registry.execute({ call, ctx: { ...box.ctx, clock } });
    const lines = result.content.split('\n');
    assert.ok(lines.length > 1 && lines.length < 100, `${lines.length} lines`);
    assert.match(lines.at(-1) ?? '', /^\[Search stopped after 30 s; narrow the glob or path/);
  });
});

describe('globToRegExp', () => {
  const matches = (glob: string, p: string): boolean => globToRegExp({ glob }).test(p);

  test('supports **, *, ?, {a,b} and [..]; a glob without / matches names at any depth', () => {
    assert.equal(matches('**/*.ts', 'a.ts'), true);
    assert.equal(matches('**/*.ts', 'x/y/a.ts'), true);
    assert.equal(matches('**/*.ts', 'x/a.tsx'), false);
    assert.equal(matches('src/*.ts', 'src/a.ts'), true);
    assert.equal(matches('src/*.ts', 'src/x/a.ts'), false);
    assert.equal(matches('*.md', 'docs/intro.md'), true);
    assert.equal(matches('*.{js,ts}', 'a/b.js'), true);
    assert.equal(matches('file?.txt', 'file1.txt'), true);
    assert.equal(matches('file[0-9].txt', 'file7.txt'), true);
    assert.equal(matches('file[!0-9].txt', 'file7.txt'), false);
    assert.equal(matches('a+b.txt', 'a+b.txt'), true);
  });
});
