import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogBacklog } from '../../../src/log/log-backlog.js';
import { RotatingFileStream, type LogFileOps } from '../../../src/log/rotating-file.js';
import { FakeClock } from '../../helpers/fake-clock.js';

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

/** File calls that fail like a full disk while `full` is true (short writes first, as the kernel does). */
function fullDiskOps(): { ops: LogFileOps; setFull: (full: boolean) => void; opens: () => number } {
  let full = false;
  let shortWriteDone = false;
  let opens = 0;
  const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  return {
    setFull: (value) => {
      full = value;
      shortWriteDone = false;
    },
    opens: () => opens,
    ops: {
      openSync: (file, flags, mode) => {
        opens += 1;
        return fs.openSync(file, flags, mode);
      },
      writeSync: (fd, buffer, offset, length) => {
        if (!full) return fs.writeSync(fd, buffer, offset, length);
        if (!shortWriteDone && length > 4) {
          shortWriteDone = true;
          return fs.writeSync(fd, buffer, offset, 4); // the last free bytes: a short write, then ENOSPC
        }
        throw enospc();
      },
      closeSync: (fd) => fs.closeSync(fd),
    },
  };
}

describe('RotatingFileStream on a disk that refuses writes', () => {
  test('never throws: lines go to the fallback and a bounded backlog, the reporter hears it once, and the file gets them (whole) when it takes writes again', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    try {
      const file = path.join(root, 'logs', 'gateway.log');
      const clock = new FakeClock(0);
      const disk = fullDiskOps();
      const fallback: string[] = [];
      const notices: string[] = [];
      const reports: string[] = [];
      const stream = new RotatingFileStream({
        file,
        maxSize: 1024 * 1024,
        maxFiles: 1,
        clock,
        ops: disk.ops,
        fallback: { write: (text: string) => fallback.push(text) },
        notices: { write: (text: string) => notices.push(text) },
        reporter: {
          failed: ({ part, kind, detail }) => reports.push(`failed ${part} ${kind} ${detail}`),
          succeeded: ({ part }) => reports.push(`ok ${part}`),
        },
      });
      stream.write('{"msg":"one"}\n');
      disk.setFull(true);
      assert.equal(stream.write('{"msg":"two"}\n'), true);
      stream.write('{"msg":"three"}\n');
      assert.equal(stream.refusing, true);
      assert.deepEqual(fallback, ['{"msg":"two"}\n', '{"msg":"three"}\n']);
      assert.deepEqual(reports, ['failed log diskFull the log file cannot be written (disk full, ENOSPC)']);
      assert.match(notices[0] ?? '', /cannot write the log file .*gateway\.log \(ENOSPC: disk full\); logging to stderr until it can/);
      const opensWhileFull = disk.opens();
      stream.write('{"msg":"four"}\n');
      assert.equal(disk.opens(), opensWhileFull, 'the file is not tried again before the retry delay');
      assert.equal(stream.retry(), false, 'still full');

      disk.setFull(false);
      await clock.advance(5000);
      stream.write('{"msg":"five"}\n');
      assert.equal(stream.refusing, false);
      assert.deepEqual(reports.at(-1), 'ok log');
      assert.match(notices.at(-1) ?? '', /takes writes again/);
      await stream.close();
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
      assert.deepEqual(lines.map((l) => (JSON.parse(l) as { msg: string }).msg), ['one', 'two', 'three', 'four', 'five'], 'the short write was completed, nothing doubled');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('a log path it cannot even open (gateway.log -> /dev/full, or a read-only folder) is no reason to throw', { skip: fs.existsSync('/dev/full') ? false : 'no /dev/full' }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    try {
      const file = path.join(root, 'gateway.log');
      fs.symlinkSync('/dev/full', file);
      const fallback: string[] = [];
      const stream = new RotatingFileStream({ file, maxSize: 100, maxFiles: 1, fallback: { write: (t: string) => fallback.push(t) }, notices: { write: () => true } });
      for (let i = 0; i < 5; i++) assert.equal(stream.write(`line ${i} that is long enough to want rotation\n`), true);
      assert.equal(fallback.length, 5);
      await stream.close();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('LogBacklog', () => {
  test('keeps at most maxBytes, dropping the oldest whole lines but never a partly written first line', () => {
    const backlog = new LogBacklog({ maxBytes: 10 });
    backlog.push({ chunk: 'aaaa\n' });
    backlog.consume({ bytes: 2 });
    backlog.push({ chunk: 'bbbb\n' });
    backlog.push({ chunk: 'cccc\n' });
    assert.equal(backlog.peek()?.toString(), 'aa\n');
    assert.equal(backlog.lines, 2);
    assert.equal(backlog.takeDropped(), 1);
    assert.equal(backlog.takeDropped(), 0);
    backlog.consume({ bytes: 3 });
    assert.equal(backlog.atLineStart, true);
    assert.equal(backlog.peek()?.toString(), 'cccc\n');
  });
});
