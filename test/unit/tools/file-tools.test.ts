import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeSandbox, type Sandbox } from './support.js';

describe('read_file / write_file / patch', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = makeSandbox();
  });
  afterEach(() => box.cleanup());

  test('read_file numbers lines, windows with offset/limit and says how to read on', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    fs.writeFileSync(path.join(box.workspace, 'f.txt'), `${lines.join('\n')}\n`);
    const all = await box.call('read_file', { path: 'f.txt' });
    assert.equal(all.isError, false);
    assert.equal(all.content.split('\n')[0], '     1\tline 1');
    assert.equal(all.content.split('\n').length, 10);
    const window = await box.call('read_file', { path: 'f.txt', offset: 3, limit: 2 });
    assert.equal(window.content, '     3\tline 3\n     4\tline 4\n[Showing lines 3-4 of 10. Use offset=5 to read more.]');
    const past = await box.call('read_file', { path: 'f.txt', offset: 50 });
    assert.equal(past.content, 'f.txt has 10 lines; offset 50 is past the end.');
  });

  test('read_file caps very long lines and explains missing, binary and directory paths', async () => {
    fs.writeFileSync(path.join(box.workspace, 'long.txt'), 'x'.repeat(5_000));
    const long = await box.call('read_file', { path: 'long.txt' });
    assert.match(long.content, /\[line cut: 5000 chars\]$/);
    assert.ok(long.content.length < 2_100);
    fs.writeFileSync(path.join(box.workspace, 'bin'), Buffer.from([1, 2, 0, 3]));
    assert.match((await box.call('read_file', { path: 'bin' })).content, /binary/);
    assert.match((await box.call('read_file', { path: 'nope.txt' })).content, /^Error: nope.txt does not exist/);
    assert.match((await box.call('read_file', { path: '.' })).content, /is a directory/);
  });

  test('write_file creates parent directories and replaces content', async () => {
    const result = await box.call('write_file', { path: 'deep/er/new.txt', content: 'héllo\nworld' });
    assert.deepEqual(result, { content: 'Wrote 12 bytes (2 lines) to deep/er/new.txt.', isError: false });
    assert.equal(fs.readFileSync(path.join(box.workspace, 'deep/er/new.txt'), 'utf8'), 'héllo\nworld');
    await box.call('write_file', { path: 'deep/er/new.txt', content: 'again' });
    assert.equal(fs.readFileSync(path.join(box.workspace, 'deep/er/new.txt'), 'utf8'), 'again');
  });

  test('read_file and write_file refuse ../, absolute and symlinked paths outside the workspace', async () => {
    fs.writeFileSync(path.join(box.outside, 'secret.txt'), 'top secret');
    fs.symlinkSync(box.outside, path.join(box.workspace, 'link'));
    const escapes = ['../outside/secret.txt', path.join(box.outside, 'secret.txt'), 'link/secret.txt'];
    for (const p of escapes) {
      const read = await box.call('read_file', { path: p });
      assert.equal(read.isError, true, p);
      assert.match(read.content, /is outside the workspace .*tools\.confine_to_workspace: false/);
      assert.ok(!read.content.includes('top secret'));
      const write = await box.call('write_file', { path: p.replace('secret.txt', 'planted.txt'), content: 'x' });
      assert.equal(write.isError, true, p);
    }
    assert.deepEqual(fs.readdirSync(box.outside), ['secret.txt'], 'a file was written outside the workspace');
  });

  test('patch replaces exactly one occurrence and explains 0 or several', async () => {
    const file = path.join(box.workspace, 'code.ts');
    fs.writeFileSync(file, 'const a = 1;\nconst b = 1;\nconst c = 2;\n');
    const twice = await box.call('patch', { path: 'code.ts', old_string: '= 1;', new_string: '= 9;' });
    assert.equal(twice.isError, true);
    assert.match(twice.content, /old_string occurs 2 times in code\.ts; it must occur exactly once/);
    const none = await box.call('patch', { path: 'code.ts', old_string: 'const d', new_string: 'x' });
    assert.match(none.content, /old_string was not found in code\.ts/);
    const ok = await box.call('patch', { path: 'code.ts', old_string: 'const b = 1;', new_string: "const b = '$&';" });
    assert.deepEqual(ok, { content: 'Patched code.ts: replaced 1 occurrence starting at line 2.', isError: false });
    assert.equal(fs.readFileSync(file, 'utf8'), "const a = 1;\nconst b = '$&';\nconst c = 2;\n");
  });

  test('patch counts overlapping occurrences as ambiguous and refuses paths outside', async () => {
    fs.writeFileSync(path.join(box.workspace, 'a.txt'), 'aaa');
    const overlapping = await box.call('patch', { path: 'a.txt', old_string: 'aa', new_string: 'b' });
    assert.match(overlapping.content, /occurs 2 times/);
    fs.writeFileSync(path.join(box.outside, 'o.txt'), 'hello');
    const outside = await box.call('patch', { path: '../outside/o.txt', old_string: 'hello', new_string: 'bye' });
    assert.equal(outside.isError, true);
    assert.equal(fs.readFileSync(path.join(box.outside, 'o.txt'), 'utf8'), 'hello');
  });
});
