import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyCommand, linearPattern } from '../../../../src/tools/approval/classify-command.js';
import { DANGER_PATTERNS } from '../../../../src/tools/approval/danger-patterns.js';
import { HARD_BLOCKLIST } from '../../../../src/tools/approval/hard-blocklist.js';
import { LinearMatcher, UnsupportedPatternError } from '../../../../src/tools/approval/linear-matcher.js';
import { MAX_NESTING, normalizeCommand } from '../../../../src/tools/approval/normalize-command.js';
import { BLOCK_CASES, DANGER_CASES } from './cases.js';

const TABLE = [...HARD_BLOCKLIST, ...DANGER_PATTERNS];

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

/** Lower-cased segments of every table case, plus random phrases of pattern words and random characters. */
function corpus(): string[] {
  const out: string[] = [];
  for (const c of [...DANGER_CASES, ...BLOCK_CASES]) {
    for (const command of [...c.positive, ...c.benign]) out.push(...normalizeCommand({ command }).segments.map((s) => s.toLowerCase()));
  }
  const words = [
    'rm', '-rf', '-r', '/', '/*', '~', '~/', '$home', '${home:?}/', '/usr', '/etc/', 'git', 'push', '--force', '+main', 'reset',
    '--hard', 'clean', '-fd', '|', 'sh', 'bash', '-s', 'drop', 'table', 'if', 'exists', 'users;', 'delete', 'from', 'truncate',
    'chmod', '777', 'o+w', 'chown', '/dev/sda', '/dev/sdb1', '>', '>>', '<', '.env', '/proc/1/environ', '~/.ssh/id_rsa',
    'authorized_keys', '~/.bashrc', '/var/log/x', 'kill', '-9', '-1', '1', 'pkill', 'init', 'systemctl', 'stop', 'reboot',
    'mkfs.ext4', 'dd', 'of=/dev/sda', 'find', '-delete', '-exec', 'xargs', 'curl', '$(', '$(curl', 'eval', 'python3', '-c',
    'os.system', 'fork', 'while', ':()', '{', ':|:&', '}', ';', 'a\nb', 'x\u00a0y', '\t', 'tee', 'sed', '-i', 'mv', '/dev/null',
    'history', 'unset', 'histfile', 'crontab', 'iptables', '-f', 'ufw', 'disable', 'nft', 'flush', 'ruleset', 'shred', '$cmd', '`',
  ];
  const next = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  for (let k = 0; k < 4000; k++) {
    const phrase = Array.from({ length: 1 + Math.floor(next() * 7) }, () => pick(words));
    out.push(phrase.join(next() < 0.9 ? ' ' : ''));
  }
  const alphabet = [...' \t\n/$~-rf|;.:(){}[]`=+*_0123456789abcdehilmnoprstuvwxy\u00a0\u2028é'];
  for (let k = 0; k < 4000; k++) out.push(Array.from({ length: Math.floor(next() * 20) }, () => pick(alphabet)).join(''));
  // Longer than PREFILTER_AFTER, so the required-literal check is taken: several of the texts above joined.
  const short = out.slice();
  for (let k = 0; k < 1000; k++) {
    out.push(Array.from({ length: 10 + Math.floor(next() * 30) }, () => pick(short)).join(pick([' ', ' ', ' | ', '; ', ''])));
  }
  return out;
}

describe('LinearMatcher', () => {
  test('every table pattern compiles to it (none falls back to V8)', () => {
    for (const entry of TABLE) assert.doesNotThrow(() => new LinearMatcher({ source: entry.pattern.source }), entry.id);
  });

  test('answers as RegExp#test does, for every table pattern, on the cases, 8,000 random phrases and 1,000 long texts', () => {
    const inputs = corpus();
    for (const entry of TABLE) {
      const matcher = new LinearMatcher({ source: entry.pattern.source });
      // A cache of 3 states starts over all the time: answers must not change.
      const starved = new LinearMatcher({ source: entry.pattern.source, maxStates: 3 });
      const regex = linearPattern({ pattern: entry.pattern });
      let matched = 0;
      for (const text of inputs) {
        const expected = regex.test(text);
        assert.equal(matcher.test(text), expected, `${entry.id} on ${JSON.stringify(text)}`);
        assert.equal(starved.test(text), expected, `${entry.id} (3 states) on ${JSON.stringify(text)}`);
        if (expected) matched++;
      }
      assert.ok(starved.size <= 3, `${entry.id}: ${starved.size} states kept`);
      assert.ok(matched > 0, `${entry.id} matched nothing in the corpus`);
    }
  });

  test('handles assertions, classes and repetition like RegExp', () => {
    const cases: [string, string[]][] = [
      [String.raw`\bab\b`, ['ab', 'x ab y', 'xab', 'ab_', 'a-ab-', '']],
      [String.raw`^a+b?$`, ['a', 'aab', 'ab b', 'b', 'aaab\n']],
      [String.raw`x[^\s=]*y|^[\w.-]+$`, ['x==y', 'xaay', 'a.b-c', 'a b', 'x\ny']],
      [String.raw`a.c`, ['abc', 'a\nc', 'a\u2028c', 'a\u00e9c']],
      [String.raw`\Bb`, ['ab', ' b', 'b']],
    ];
    for (const [source, texts] of cases) {
      const matcher = new LinearMatcher({ source });
      for (const text of texts) assert.equal(matcher.test(text), new RegExp(source).test(text), `${source} on ${JSON.stringify(text)}`);
    }
  });

  test('characters from 128 up share states by the classes the pattern tells apart (64 KiB of distinct ones build few)', () => {
    let text = 'cat ';
    for (let code = 0x4e00; text.length < 64 * 1024; code++) text += String.fromCharCode(code);
    const withSpaces = `${text}\u3000.env\u2028/proc/1/environ`;
    for (const entry of TABLE) {
      const matcher = new LinearMatcher({ source: entry.pattern.source });
      const regex = linearPattern({ pattern: entry.pattern });
      for (const t of [text, withSpaces]) assert.equal(matcher.test(t), regex.test(t), entry.id);
      assert.ok(matcher.size <= 64, `${entry.id}: ${matcher.size} DFA states`);
    }
  });

  test('refuses syntax it does not implement', () => {
    for (const source of [String.raw`(a)\1`, 'a(?=b)', 'a{2}', '(a)', String.raw`\x41`, '[a', 'a)', '*a']) {
      assert.throws(() => new LinearMatcher({ source }), UnsupportedPatternError, source);
    }
  });

  test('an anchored pattern stops at the first character that rules it out; any test reads each character once', () => {
    const long = 'x'.repeat(64 * 1024);
    const anchored = new LinearMatcher({ source: String.raw`^rm\s(?:.*\s)?-r` });
    let before = LinearMatcher.stepped;
    assert.equal(anchored.test(long), false);
    assert.ok(LinearMatcher.stepped - before <= 1, `stepped ${LinearMatcher.stepped - before}`);
    const unanchored = new LinearMatcher({ source: String.raw`\bdrop\s+table` });
    before = LinearMatcher.stepped;
    assert.equal(unanchored.test(`${long} drop tables`), true);
    assert.ok(LinearMatcher.stepped - before <= long.length + 12);
  });

  test('a search still alive after 64 characters stops when the text lacks every literal a match needs', () => {
    const matcher = new LinearMatcher({ source: String.raw`^rm\s|\bdrop\s+(?:table|database)\s` });
    assert.deepEqual(matcher.requiredLiterals, ['rm', 'table', 'database']);
    const before = LinearMatcher.stepped;
    assert.equal(matcher.test(`${'a '.repeat(30_000)}drop schema x`), false);
    assert.equal(LinearMatcher.stepped - before, 64);
    assert.equal(matcher.test('x; drop table y'), true);
    assert.equal(new LinearMatcher({ source: 'a?b*|c' }).requiredLiterals, undefined);
  });
});

describe('classifyCommand: bounded work', () => {
  /** Segment count, total segment characters and matcher steps of one classification. */
  function work(command: string): { segments: number; chars: number; steps: number } {
    const { segments } = normalizeCommand({ command });
    const before = LinearMatcher.stepped;
    classifyCommand({ command });
    return { segments: segments.length, chars: segments.reduce((n, s) => n + s.length, 0), steps: LinearMatcher.stepped - before };
  }

  const fill = (unit: string, length: number): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  const shapes: readonly [string, (n: number) => string][] = [
    ['$(', (n) => fill('$(', n)],
    ['rm -r -r …', (n) => `rm ${fill('-r ', n - 3)}`],
    ['a | a | …', (n) => fill('a | ', n)],
    ['"a" "a" …', (n) => fill('"a" ', n)],
    ['a;a;…', (n) => fill('a;', n)],
    ['eval eval …', (n) => fill('eval ', n)],
    ['a`a`…', (n) => fill('a`', n)],
    ['echo $(echo $(…))', (n) => `${fill('echo $(', n / 2)}${fill(')', n / 2)}`],
    ['echo rm | sh | …', (n) => fill('echo rm | sh | ', n)],
    ['f() { …', (n) => fill('f() { ', n)],
  ];

  for (const [name, make] of shapes) {
    test(`${name}: segments, their characters and matcher steps grow linearly with the input`, () => {
      const small = work(make(4096));
      const large = work(make(16 * 1024));
      for (const key of ['segments', 'chars', 'steps'] as const) {
        assert.ok(large[key] <= 4.5 * small[key] + 64, `${key}: ${small[key]} at 4 KiB, ${large[key]} at 16 KiB`);
      }
      // Nesting copies a script into its parent's segment at most MAX_NESTING times over.
      assert.ok(large.chars <= (MAX_NESTING + 2) * 16 * 1024, `${large.chars} segment characters`);
      // Each pattern reads each segment character at most once.
      assert.ok(large.steps <= TABLE.length * (large.chars + large.segments), `${large.steps} steps`);
    });
  }
});
