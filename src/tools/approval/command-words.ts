// How the normaliser reads one simple command's words: the wrappers it strips (sudo, env, nohup…) to find the
// program, and the scripts a program runs of its own (`sh -c`, `eval`, `su -c`, text piped into a shell).

/** Programs whose `-c` argument is a script of its own. */
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish']);
/** Programs that run the script they read from stdin: the shells (without a script file) and `at`/`batch` (later). */
const STDIN_SCRIPT = new Set([...SHELLS, 'at', 'batch']);
/** Words that may precede a command without being it. */
const KEYWORDS = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);

/** Programs that run the command after their own options, and which of those options take a value. */
const WRAPPERS: ReadonlyMap<string, { valueFlags: readonly string[]; positional?: number; assignments?: boolean }> = new Map([
  ['sudo', { valueFlags: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group'] }],
  ['doas', { valueFlags: ['-u', '-C'] }],
  ['env', { valueFlags: ['-u', '-C', '--unset', '--chdir'], assignments: true }],
  ['command', { valueFlags: [] }],
  ['builtin', { valueFlags: [] }],
  ['exec', { valueFlags: ['-a'] }],
  ['nohup', { valueFlags: [] }],
  ['time', { valueFlags: ['-f', '-o'] }],
  ['nice', { valueFlags: ['-n', '--adjustment'] }],
  ['ionice', { valueFlags: ['-c', '-n', '-p'] }],
  ['timeout', { valueFlags: ['-s', '-k', '--signal', '--kill-after'], positional: 1 }],
  ['stdbuf', { valueFlags: ['-i', '-o', '-e'] }],
  ['setsid', { valueFlags: [] }],
  ['watch', { valueFlags: ['-n', '--interval'] }],
  ['xargs', { valueFlags: ['-I', '-n', '-P', '-d', '-E', '-L', '-s', '-a', '--max-args', '--max-procs', '--delimiter'] }],
  // Multi-call binaries: `busybox rm -rf x` runs rm.
  ['busybox', { valueFlags: [] }],
  ['toybox', { valueFlags: [] }],
  // Programs that run a command in another root, user, namespace, scheduling class or under a tracer or lock.
  ['chroot', { valueFlags: ['--userspec', '--groups'], positional: 1 }],
  ['flock', { valueFlags: ['-w', '-E', '--wait', '--timeout', '--conflict-exit-code'], positional: 1 }],
  ['pkexec', { valueFlags: ['--user'] }],
  ['unshare', { valueFlags: ['-S', '-G', '-R', '-w', '--setuid', '--setgid', '--root', '--wd'] }],
  ['nsenter', { valueFlags: ['-t', '-S', '-G', '-r', '-w', '--target', '--setuid', '--setgid'] }],
  ['systemd-run', { valueFlags: ['-u', '-p', '-E', '-M', '-H', '--unit', '--property', '--setenv', '--machine', '--host', '--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--on-calendar', '--on-active'] }],
  ['chrt', { valueFlags: [], positional: 1 }],
  ['taskset', { valueFlags: [], positional: 1 }],
  ['cgexec', { valueFlags: ['-g'] }],
  ['strace', { valueFlags: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-P', '-S', '-X'] }],
  ['ltrace', { valueFlags: ['-o', '-e', '-p', '-s', '-u', '-a', '-n'] }],
  ['unbuffer', { valueFlags: [] }],
  ['fakeroot', { valueFlags: ['-l', '-s', '-i', '--lib', '--faked'] }],
  ['firejail', { valueFlags: [] }],
  ['proxychains', { valueFlags: ['-f'] }],
  ['proxychains4', { valueFlags: ['-f'] }],
  ['torsocks', { valueFlags: ['-u', '-p', '-a', '-P'] }],
]);

/** The text `echo …` / `printf …` pipes into a shell that reads its script from stdin (`echo "rm -rf /" | sh`). */
export function pipedScript(params: { from: readonly string[]; into: readonly string[] }): string | undefined {
  const { from, into } = params;
  const shell = into[0];
  if (shell === undefined || !STDIN_SCRIPT.has(shell)) return undefined;
  if (SHELLS.has(shell) && into.slice(1).some((w) => !w.startsWith('-'))) return undefined;
  if (from[0] !== 'echo' && from[0] !== 'printf') return undefined;
  // Only echo's own leading options (`-n`, `-e`) are dropped: `echo rm -rf / | sh` runs `rm -rf /`.
  let first = 1;
  while (from[0] === 'echo' && first < from.length && /^-[neE]+$/.test(from[first] ?? '')) first++;
  return from.slice(first).join(' ');
}

/** The script a command runs itself: the argument of `sh -c`, `su -c` or `sh <<< …`, or everything after `eval`. */
export function innerScript(params: { words: readonly string[]; segment: string }): string | undefined {
  const { words } = params;
  const program = words[0];
  if (program === undefined) return undefined;
  if (program === 'eval') return words.length > 1 ? params.segment.slice(program.length + 1) : undefined;
  if (program === 'su' || program === 'runuser' || program === 'script') {
    const at = words.findIndex((w) => w === '-c' || w === '--command');
    if (at > 0) return words[at + 1];
    // `runuser -u bob -- rm -rf x` runs the words after `--`.
    const dashes = program === 'runuser' ? words.indexOf('--') : -1;
    return dashes > 0 && dashes + 1 < words.length ? words.slice(dashes + 1).join(' ') : undefined;
  }
  if (program === 'ssh') return sshCommand(words);
  if (program === 'git') return gitConfigCommand(words);
  const hereString = words.indexOf('<<<');
  if (hereString > 0 && STDIN_SCRIPT.has(program)) return words[hereString + 1];
  if (!SHELLS.has(program)) return undefined;
  let sawC = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word.startsWith('--')) continue;
    if (word.startsWith('-') || word.startsWith('+')) {
      if (word === '-o' || word === '+o') i++;
      else if (word.includes('c')) sawC = true;
      continue;
    }
    return sawC ? word : undefined;
  }
  return undefined;
}

/** Options of ssh that take a value. */
const SSH_VALUE_FLAGS = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B', '-P']);

/** The command `ssh [options] host command…` runs on the other machine (its words joined, as ssh sends them). */
function sshCommand(words: readonly string[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--') continue;
    if (word.startsWith('-')) {
      if (takesValue({ option: word, valueFlags: [...SSH_VALUE_FLAGS] })) i++;
      continue;
    }
    return i + 1 < words.length ? words.slice(i + 1).join(' ') : undefined;
  }
  return undefined;
}

/** Git settings whose value git runs as a shell command (an alias starting with `!` too). */
const GIT_COMMAND_SETTINGS = new Set(['core.sshcommand', 'core.pager', 'core.editor', 'core.fsmonitor', 'sequence.editor', 'diff.external', 'pager.log', 'pager.diff']);

/** The shell command a `git -c key=value` runs (`git -c alias.x='!rm -rf /' x`, `-c core.sshCommand=…`), if any. */
function gitConfigCommand(words: readonly string[]): string | undefined {
  for (let i = 1; i + 1 < words.length; i++) {
    if (words[i] !== '-c') continue;
    const setting = words[i + 1] ?? '';
    const eq = setting.indexOf('=');
    if (eq < 0) continue;
    const [key, value] = [setting.slice(0, eq).toLowerCase(), setting.slice(eq + 1)];
    if (key.startsWith('alias.') && value.startsWith('!')) return value.slice(1);
    if (GIT_COMMAND_SETTINGS.has(key)) return value;
  }
  return undefined;
}

/** Drops leading keywords, assignments and wrappers (sudo, env, nohup, xargs, watch…) and shortens the program's path. */
export function stripWrappers(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const word = baseName(words[i] ?? '');
    if (KEYWORDS.has(word) || isAssignment(word)) {
      i++;
      continue;
    }
    const wrapper = WRAPPERS.get(word);
    if (wrapper === undefined) break;
    i++;
    let positional = wrapper.positional ?? 0;
    while (i < words.length) {
      const next = words[i] ?? '';
      if (next === '--') {
        i++;
        break;
      }
      if (next.startsWith('-') && next.length > 1) {
        i += takesValue({ option: next, valueFlags: wrapper.valueFlags }) ? 2 : 1;
      } else if (wrapper.assignments === true && isAssignment(next)) {
        i++;
      } else if (positional > 0) {
        positional--;
        i++;
      } else break;
    }
  }
  const rest = words.slice(i);
  if (rest.length > 0) rest[0] = baseName(rest[0] ?? '');
  return rest;
}

/**
 * Whether a wrapper's option takes the next word as its value: a value flag (`-u`), or a cluster of short options
 * whose first value flag is its last letter (`sudo -iu root`: `-i -u root`; in `-uroot` the value is attached).
 */
function takesValue(params: { option: string; valueFlags: readonly string[] }): boolean {
  const { option, valueFlags } = params;
  if (valueFlags.includes(option)) return true;
  if (option.startsWith('--') || option.includes('=')) return false;
  for (let k = 1; k < option.length; k++) {
    if (valueFlags.includes(`-${option[k] ?? ''}`)) return k === option.length - 1;
  }
  return false;
}

/** `/usr/bin/rm` → `rm`; other words unchanged. */
function baseName(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash >= 0 && slash < word.length - 1 && !word.includes('$(') ? word.slice(slash + 1) : word;
}

/** True for `NAME=value`. */
function isAssignment(word: string): boolean {
  const eq = word.indexOf('=');
  return eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.slice(0, eq));
}

