import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { globToRegExp } from '../../../src/tools/builtin/glob.js';
import { makeSandbox, type Sandbox } from './support.js';

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
