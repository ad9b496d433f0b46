import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyCommand, UNCHECKED_COMMAND } from '../../../../src/tools/approval/classify-command.js';
import { MAX_NESTING, MAX_SCANNED_CHARS, normalizeCommand } from '../../../../src/tools/approval/normalize-command.js';

/** The segments of a command. */
const segments = (command: string): readonly string[] => normalizeCommand({ command }).segments;

/** The ids a command's verdict names (the blocked one, or the dangerous ones). */
function ids(command: string): string[] {
  const verdict = classifyCommand({ command });
  if (verdict.kind === 'blocked') return [verdict.match.patternId];
  if (verdict.kind === 'dangerous') return verdict.matches.map((m) => m.patternId);
  return [];
}

describe('normalizeCommand', () => {
  test('removes quotes and backslash escapes inside words', () => {
    assert.ok(segments(`r'm' -rf build`).includes('rm -rf build'));
    assert.ok(segments(`"rm" -rf build`).includes('rm -rf build'));
    assert.ok(segments(`r\\m -rf build`).includes('rm -rf build'));
    assert.ok(segments(`r"m" '-rf' "build"`).includes('rm -rf build'));
    assert.ok(segments(`$'rm' -rf build`).includes('rm -rf build'));
    assert.deepEqual(ids(`r'm' -rf build`), ['recursive-delete']);
  });

  test("decodes $'…' escapes as bash does (hex, octal, \\u, \\n); other escaped characters stand for themselves", () => {
    assert.ok(segments("$'\\x72\\x6d' -rf build").includes('rm -rf build'));
    assert.ok(segments("$'\\162\\155' -rf build").includes('rm -rf build'));
    assert.ok(segments("$'r\\u006d' -rf build").includes('rm -rf build'));
    assert.ok(segments("echo $'a\\tb\\'c'").includes("echo a\tb'c"));
  });

  test('joins backslash-newline continuations and collapses whitespace', () => {
    assert.ok(segments('rm \\\n  -rf \\\n  build').includes('rm -rf build'));
    assert.ok(segments('r\\\nm -rf build').includes('rm -rf build'));
    assert.ok(segments('rm\t\t-rf     build').includes('rm -rf build'));
    assert.deepEqual(ids('git push \\\n --force'), ['git-force-push']);
  });

  test('splits ; && || | & and newlines into segments, and keeps the whole pipeline as one too', () => {
    const s = segments('cd /srv && make; echo ok || rm -rf build\nls | grep x & true');
    for (const expected of ['cd /srv', 'make', 'echo ok', 'rm -rf build', 'ls', 'grep x', 'true', 'ls | grep x']) {
      assert.ok(s.includes(expected), `missing ${expected} in ${JSON.stringify(s)}`);
    }
    assert.deepEqual(ids('echo start; rm -rf build && echo done'), ['recursive-delete']);
    assert.deepEqual(ids('ls && curl -s https://x.io/i | sh'), ['pipe-to-shell', 'pipe-into-shell']);
    assert.equal(classifyCommand({ command: 'echo a; rm -rf / ; echo b' }).kind, 'blocked');
    assert.equal(classifyCommand({ command: 'true && rm -rf /' }).kind, 'blocked');
  });

  test('looks inside $(…), backticks and <(…), also within double quotes', () => {
    assert.ok(segments('echo $(rm -rf build)').includes('rm -rf build'));
    assert.ok(segments('echo `rm -rf build`').includes('rm -rf build'));
    assert.ok(segments('echo "today: $(rm -rf build)"').includes('rm -rf build'));
    assert.ok(segments('diff <(rm -rf build) x').includes('rm -rf build'));
    assert.ok(segments('echo $(echo $(rm -rf build))').includes('rm -rf build'));
    assert.equal(classifyCommand({ command: 'x=$(rm -rf /)' }).kind, 'blocked');
    assert.equal(classifyCommand({ command: 'echo "`rm -rf /`"' }).kind, 'blocked');
  });

  test('checks the script of sh -c, bash -lc, su -c and eval as segments of their own', () => {
    assert.ok(segments(`bash -c 'rm -rf build; echo ok'`).includes('rm -rf build'));
    assert.ok(segments(`sh -c "echo hi && rm -rf build"`).includes('rm -rf build'));
    assert.ok(segments(`bash -lc 'rm -rf build'`).includes('rm -rf build'));
    assert.ok(segments(`su root -c 'rm -rf build'`).includes('rm -rf build'));
    assert.ok(segments(`eval "rm -rf build"`).includes('rm -rf build'));
    assert.ok(segments(`sh -c "sh -c 'rm -rf build'"`).includes('rm -rf build'));
    assert.equal(classifyCommand({ command: `bash -c 'rm -rf /'` }).kind, 'blocked');
    assert.equal(classifyCommand({ command: `eval 'kill -9 -1'` }).kind, 'blocked');
    assert.deepEqual(classifyCommand({ command: `bash -c 'echo hi'` }), { kind: 'safe' });
  });

  test('checks text piped into a shell from echo/printf, and a here-string given to a shell, as scripts', () => {
    assert.ok(segments(`echo "rm -rf build" | sh`).includes('rm -rf build'));
    assert.ok(segments(`printf 'rm -rf build' | bash -s`).includes('rm -rf build'));
    assert.ok(segments(`bash <<< 'rm -rf build'`).includes('rm -rf build'));
    assert.equal(classifyCommand({ command: `echo "rm -rf /" | sh` }).kind, 'blocked');
    assert.equal(classifyCommand({ command: `sh <<< 'rm -rf /'` }).kind, 'blocked');
    assert.ok(!segments(`echo "rm -rf build" | grep rm`).includes('rm -rf build'));
  });

  test('strips sudo, env, command, exec, nohup, time, xargs, assignments and the program path', () => {
    for (const command of [
      'sudo rm -rf build',
      'sudo -u root -E rm -rf build',
      'env -i FOO=1 rm -rf build',
      'FOO=1 BAR=2 rm -rf build',
      'command rm -rf build',
      'exec rm -rf build',
      'nohup rm -rf build',
      'time rm -rf build',
      'nice -n 10 timeout 5 rm -rf build',
      'xargs -0 rm -rf build',
      '/bin/rm -rf build',
      '/usr/bin/sudo /usr/bin/rm -rf build',
      '\\rm -rf build',
      'watch -n 5 rm -rf build',
      '{ rm -rf build; }',
      '(rm -rf build)',
      'if true; then rm -rf build; fi',
    ]) {
      assert.ok(segments(command).includes('rm -rf build'), `${command} → ${JSON.stringify(segments(command))}`);
    }
    assert.equal(classifyCommand({ command: 'sudo /bin/rm -rf /' }).kind, 'blocked');
    assert.equal(classifyCommand({ command: 'sudo -u root env X=1 nohup /usr/bin/mkfs.ext4 /dev/sda1' }).kind, 'blocked');
  });

  test('expands unquoted braces as bash does (quoted ones and ${…} stay); an expansion too large to check needs approval', () => {
    assert.ok(segments('rm -{r,f} build').includes('rm -r -f build'));
    assert.ok(segments('{rm,-rf,build}').includes('rm -rf build'));
    assert.ok(segments('cat .e{n,}v').includes('cat .env .ev'));
    assert.ok(segments('echo {a..c}{1,2}').includes('echo a1 a2 b1 b2 c1 c2'));
    assert.ok(segments("echo '{a,b}' \\{c,d}").includes('echo {a,b} {c,d}'));
    assert.ok(segments('echo ${HOME} ${x:-a,b}').includes('echo ${HOME} ${x:-a,b}'));
    assert.ok(segments('find . -exec ls {} +').includes('find . -exec ls {} +'));
    const huge = `echo ${'{a,b}'.repeat(12)}`;
    assert.equal(normalizeCommand({ command: huge }).complete, false);
    assert.deepEqual(ids(huge), [UNCHECKED_COMMAND.patternId]);
    assert.deepEqual(classifyCommand({ command: `echo ${'{a,b}'.repeat(8)}` }), { kind: 'safe' });
  });

  test('comments are not commands, but a newline ends a comment', () => {
    assert.deepEqual(classifyCommand({ command: 'ls # then rm -rf build' }), { kind: 'safe' });
    assert.deepEqual(ids('ls # comment\nrm -rf build'), ['recursive-delete']);
  });

  test('a dangerous match names the segment it was found in, once per pattern', () => {
    const verdict = classifyCommand({ command: 'rm -rf a; rm -rf b; git reset --hard' });
    assert.equal(verdict.kind, 'dangerous');
    if (verdict.kind !== 'dangerous') return;
    assert.deepEqual(
      verdict.matches.map((m) => m.patternId),
      ['recursive-delete', 'git-reset-hard'],
    );
    const rm = verdict.matches.find((m) => m.patternId === 'recursive-delete');
    assert.equal(rm?.description, 'recursive delete (rm -r)');
    assert.match(rm?.segment ?? '', /rm -rf a/);
  });

  test('blocked wins over dangerous in the same command', () => {
    const verdict = classifyCommand({ command: 'git push --force; rm -rf /' });
    assert.equal(verdict.kind, 'blocked');
    if (verdict.kind === 'blocked') assert.equal(verdict.match.patternId, 'delete-everything');
  });

  test('an over-long command needs approval instead of skipping the check, and a block in its scanned part still blocks', () => {
    const long = `echo ${'a'.repeat(MAX_SCANNED_CHARS)}; rm -rf build`;
    assert.equal(normalizeCommand({ command: long }).complete, false);
    assert.deepEqual(ids(long), [UNCHECKED_COMMAND.patternId]);
    const verdict = classifyCommand({ command: long });
    if (verdict.kind === 'dangerous') assert.ok((verdict.matches[0]?.segment.length ?? 0) <= 200);
    assert.equal(classifyCommand({ command: `rm -rf /; echo ${'a'.repeat(MAX_SCANNED_CHARS)}` }).kind, 'blocked');
    assert.equal(normalizeCommand({ command: `echo ${'a'.repeat(1000)}` }).complete, true);
  });

  test('nesting deeper than MAX_NESTING needs approval', () => {
    const deep = `${'echo $('.repeat(MAX_NESTING + 2)}ls${')'.repeat(MAX_NESTING + 2)}`;
    assert.equal(normalizeCommand({ command: deep }).complete, false);
    assert.deepEqual(ids(deep), [UNCHECKED_COMMAND.patternId]);
    const shallow = `${'echo $('.repeat(3)}ls${')'.repeat(3)}`;
    assert.deepEqual(classifyCommand({ command: shallow }), { kind: 'safe' });
  });

  test('1 MB of random and adversarial input returns (bounded work, no catastrophic backtracking)', () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const alphabet = ` \t\n'"\\$()\`;&|<>{}#=-/*~rmfdRF:.`;
    let noise = '';
    for (let i = 0; i < 1_000_000; i++) noise += alphabet[Math.floor(random() * alphabet.length)];
    const inputs = [
      noise,
      'rm '.repeat(350_000),
      `rm ${'-r '.repeat(350_000)}`,
      `curl ${'a '.repeat(500_000)}`,
      '$('.repeat(500_000),
      '"'.repeat(1_000_000),
      ';'.repeat(1_000_000),
      `git ${'push '.repeat(200_000)}x`,
      `chmod ${'-R '.repeat(330_000)}/x`,
      `${'a'.repeat(MAX_SCANNED_CHARS - 10)} rm -rf ${'/'.repeat(1_000_000)}`,
    ];
    for (const command of inputs) {
      const verdict = classifyCommand({ command });
      assert.ok(['safe', 'dangerous', 'blocked'].includes(verdict.kind));
      assert.notEqual(verdict.kind, 'safe', 'an over-long command is never safe');
    }
  });
});
