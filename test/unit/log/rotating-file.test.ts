import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RotatingFileStream } from '../../../src/log/rotating-file.js';

describe('RotatingFileStream', () => {
  test('creates the folder, appends, and rotates an oversized existing file on the first write', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    try {
      const file = path.join(root, 'logs', 'gateway.log');
      const first = new RotatingFileStream({ file, maxSize: 50, maxFiles: 1 });
      first.write('one\n');
      await first.close();
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\n');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);

      fs.appendFileSync(file, 'x'.repeat(60) + '\n');
      const second = new RotatingFileStream({ file, maxSize: 50, maxFiles: 1 });
      second.write('two\n');
      second.write('three\n');
      await second.close();
      assert.equal(fs.readFileSync(file, 'utf8'), 'two\nthree\n');
      assert.match(fs.readFileSync(`${file}.1`, 'utf8'), /^one\nx+\n$/);

      const third = new RotatingFileStream({ file, maxSize: 10, maxFiles: 1 });
      third.write('four-four\n');
      await third.close();
      assert.equal(fs.readFileSync(`${file}.1`, 'utf8'), 'two\nthree\n', 'only one rotated file is kept');
      assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['gateway.log', 'gateway.log.1']);
      assert.equal(third.write('late\n'), false, 'writes after close are refused');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('rejects nonsensical limits', () => {
    assert.throws(() => new RotatingFileStream({ file: '/nonexistent/x.log', maxSize: 0, maxFiles: 1 }), RangeError);
    assert.throws(() => new RotatingFileStream({ file: '/nonexistent/x.log', maxSize: 10, maxFiles: 0 }), RangeError);
  });
});
