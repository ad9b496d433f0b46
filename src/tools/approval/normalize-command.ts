/** Most characters of a command line that are examined; a longer command is reported as incomplete. */
export const MAX_SCANNED_CHARS = 64 * 1024;
/** Deepest nesting of `$(…)`, backticks, `sh -c '…'` and `eval` that is looked into. */
export const MAX_NESTING = 8;

/** A command line turned into the pieces the pattern tables are checked against. */
export interface NormalizedCommand {
  /**
   * Each simple command (as written, and with wrappers such as sudo stripped and the program's path shortened, so
   * the program comes first), each redirection (`> /dev/sda`, `>> ~/.bashrc`, `< .env`), each pipeline of two or
   * more and each pair of neighbours in it, each function definition (`f ( ) { … }`), and the same for the inside
   * of every substitution and `sh -c` / `eval` script; quotes and `\` escapes removed, words separated by one
   * space. No duplicates.
   */
  segments: readonly string[];
  /** False when part of the command was not examined (longer than MAX_SCANNED_CHARS, or nested deeper than MAX_NESTING). */
  complete: boolean;
}

interface Token {
  text: string;
  /** True for an unquoted shell operator (`;`, `&&`, `|`, `>`, `(`…). */
  op: boolean;
}

interface Collector {
  segments: Set<string>;
  complete: boolean;
}

/** Operators that end a pipeline. */
const LIST_OPS = new Set([';', ';;', ';&', '&', '&&', '||', '(', ')']);
/** Operators that join the commands of a pipeline. */
const PIPE_OPS = new Set(['|', '|&']);
/** Characters that start an operator when unquoted. */
const OP_CHARS = new Set([';', '&', '|', '(', ')', '<', '>']);
/** Operators of more than one character, longest first. */
const LONG_OPS = ['&>>', '<<<', '<<-', ';;&', '&&', '||', ';;', ';&', '|&', '>>', '>&', '<&', '&>', '<<', '>|', '<>'];

/** Programs whose `-c` argument is a script of its own. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish']);
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
]);

/**
 * Turns a command line into the segments to check. Work is linear in the scanned length times MAX_NESTING:
 * only the first MAX_SCANNED_CHARS characters are looked at, and nothing deeper than MAX_NESTING.
 */
export function normalizeCommand(params: { command: string }): NormalizedCommand {
  const collector: Collector = { segments: new Set(), complete: true };
  let text = params.command;
  if (text.length > MAX_SCANNED_CHARS) {
    text = text.slice(0, MAX_SCANNED_CHARS);
    collector.complete = false;
  }
  addScript({ text, depth: 0, collector });
  return { segments: [...collector.segments], complete: collector.complete };
}

/** Adds the segments of one script (a line, or the inside of a substitution); returns its flattened form. */
function addScript(params: { text: string; depth: number; collector: Collector }): string {
  const { text, depth, collector } = params;
  if (depth > MAX_NESTING) {
    collector.complete = false;
    return text;
  }
  const tokens = lex({ text, depth, collector });
  addFunctionDefinitions({ tokens, collector });
  let pipeline: string[][] = [];
  let simple: string[] = [];
  const endSimple = (): void => {
    const stripped = addSimpleCommand({ words: simple, depth, collector });
    if (stripped.length > 0) pipeline.push(stripped);
    simple = [];
  };
  const endPipeline = (): void => {
    endSimple();
    const joined = pipeline.map((words) => words.join(' '));
    if (pipeline.length > 1) collector.segments.add(joined.join(' | '));
    for (let i = 1; i < pipeline.length; i++) {
      if (pipeline.length > 2) collector.segments.add(`${joined[i - 1] ?? ''} | ${joined[i] ?? ''}`);
      const piped = pipedScript({ from: pipeline[i - 1] ?? [], into: pipeline[i] ?? [] });
      if (piped !== undefined) addScript({ text: piped, depth: depth + 1, collector });
    }
    pipeline = [];
  };
  for (const token of tokens) {
    if (token.op && LIST_OPS.has(token.text)) endPipeline();
    else if (token.op && PIPE_OPS.has(token.text)) endSimple();
    else simple.push(token.text);
  }
  endPipeline();
  return tokens.map((t) => t.text).join(' ');
}

/** Most tokens of a function body kept in its segment (a fork bomb needs a handful). */
const MAX_FUNCTION_TOKENS = 16;

/** Adds `name ( ) { body }` for each function definition, so that its body is seen whole. */
function addFunctionDefinitions(params: { tokens: readonly Token[]; collector: Collector }): void {
  const { tokens } = params;
  for (let i = 0; i + 3 < tokens.length; i++) {
    const [name, open, close] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (name?.op !== false || open?.text !== '(' || !open.op || close?.text !== ')' || !close.op) continue;
    const body = tokens.slice(i, i + 3 + MAX_FUNCTION_TOKENS);
    const end = body.findIndex((t) => !t.op && t.text === '}');
    params.collector.segments.add((end < 0 ? body : body.slice(0, end + 1)).map((t) => t.text).join(' '));
  }
}

/** Redirection operators and the form their segment is written in (`&>` writes like `>`). */
const REDIRECTS: ReadonlyMap<string, string> = new Map([
  ['>', '>'],
  ['>|', '>'],
  ['&>', '>'],
  ['<>', '>'],
  ['>>', '>>'],
  ['&>>', '>>'],
  ['<', '<'],
]);

/** The text `echo …` / `printf …` pipes into a shell that reads its script from stdin (`echo "rm -rf /" | sh`). */
function pipedScript(params: { from: readonly string[]; into: readonly string[] }): string | undefined {
  const { from, into } = params;
  const shell = into[0];
  if (shell === undefined || !SHELLS.has(shell) || into.slice(1).some((w) => !w.startsWith('-'))) return undefined;
  if (from[0] !== 'echo' && from[0] !== 'printf') return undefined;
  return from.slice(1).filter((w) => !/^-[a-z]+$/.test(w)).join(' ');
}

/** Adds one simple command (wrappers stripped) and any script it runs; returns the stripped command's words. */
function addSimpleCommand(params: { words: readonly string[]; depth: number; collector: Collector }): string[] {
  const { collector } = params;
  for (let i = 0; i + 1 < params.words.length; i++) {
    const redirect = REDIRECTS.get(params.words[i] ?? '');
    if (redirect !== undefined) collector.segments.add(`${redirect} ${params.words[i + 1] ?? ''}`);
  }
  const asWritten = params.words.join(' ');
  const words = stripWrappers(params.words);
  const segment = words.join(' ');
  if (asWritten.length > 0 && asWritten !== segment) collector.segments.add(asWritten);
  if (segment.length === 0) return words;
  collector.segments.add(segment);
  const script = innerScript(words);
  if (script !== undefined) addScript({ text: script, depth: params.depth + 1, collector });
  return words;
}

/** The script a command runs itself: the argument of `sh -c`, `su -c` or `sh <<< …`, or everything after `eval`. */
function innerScript(words: readonly string[]): string | undefined {
  const program = words[0];
  if (program === undefined) return undefined;
  if (program === 'eval') return words.length > 1 ? words.slice(1).join(' ') : undefined;
  if (program === 'su') {
    const at = words.findIndex((w) => w === '-c' || w === '--command');
    return at > 0 ? words[at + 1] : undefined;
  }
  if (!SHELLS.has(program)) return undefined;
  const hereString = words.indexOf('<<<');
  if (hereString > 0) return words[hereString + 1];
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

/** Drops leading keywords, assignments and wrappers (sudo, env, nohup, xargs, watch…) and shortens the program's path. */
function stripWrappers(words: readonly string[]): string[] {
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
        i += wrapper.valueFlags.includes(next) ? 2 : 1;
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

/** Splits a script into words (quotes and escapes removed, substitutions flattened) and operators. */
function lex(params: { text: string; depth: number; collector: Collector }): Token[] {
  const { text, depth, collector } = params;
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  const endWord = (): void => {
    if (inWord) tokens.push({ text: word, op: false });
    word = '';
    inWord = false;
  };
  const substitute = (inner: string, opener: string): void => {
    word += `${opener}${addScript({ text: inner, depth: depth + 1, collector })})`;
    inWord = true;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    const next = text[i + 1];
    if (c === '\\') {
      if (next !== undefined && next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
    } else if (c === '\n') {
      endWord();
      tokens.push({ text: ';', op: true });
      i++;
    } else if (c === '#' && !inWord) {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const stop = close < 0 ? text.length : close;
      word += text.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
    } else if (c === '$' && next === "'") {
      const stop = quoteEnd({ text, from: i + 2, quote: "'" });
      word += dropEscapes(text.slice(i + 2, stop));
      inWord = true;
      i = stop + 1;
    } else if (c === '"') {
      inWord = true;
      i = readDoubleQuoted({ text, from: i + 1, append: (s) => (word += s), substitute });
    } else if (c === '`') {
      const close = quoteEnd({ text, from: i + 1, quote: '`' });
      substitute(text.slice(i + 1, close), '$(');
      i = close + 1;
    } else if ((c === '$' || c === '<' || c === '>') && next === '(') {
      const close = closingParen({ text, from: i + 2 });
      substitute(text.slice(i + 2, close), `${c}(`);
      i = close + 1;
    } else if (OP_CHARS.has(c)) {
      endWord();
      const op = LONG_OPS.find((o) => text.startsWith(o, i)) ?? c;
      tokens.push({ text: op, op: true });
      i += op.length;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endWord();
  return tokens;
}

/** Reads a double-quoted string from `from`; returns the index after its closing quote. */
function readDoubleQuoted(params: {
  text: string;
  from: number;
  append: (s: string) => void;
  substitute: (inner: string, opener: string) => void;
}): number {
  const { text, append, substitute } = params;
  let i = params.from;
  while (i < text.length) {
    const c = text[i] ?? '';
    const next = text[i + 1];
    if (c === '"') return i + 1;
    if (c === '\\') {
      if (next !== undefined && next !== '\n') append(next);
      i += 2;
    } else if (c === '`') {
      const close = quoteEnd({ text, from: i + 1, quote: '`' });
      substitute(text.slice(i + 1, close), '$(');
      i = close + 1;
    } else if (c === '$' && next === '(') {
      const close = closingParen({ text, from: i + 2 });
      substitute(text.slice(i + 2, close), '$(');
      i = close + 1;
    } else {
      append(c);
      i++;
    }
  }
  return i;
}

/** Index of the next unescaped `quote` at or after `from`, or the text's length. */
function quoteEnd(params: { text: string; from: number; quote: string }): number {
  const { text, quote } = params;
  for (let i = params.from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === quote) return i;
  }
  return text.length;
}

/** Index of the `)` closing a `$(` whose inside starts at `from` (quotes and nesting respected), or the text's length. */
function closingParen(params: { text: string; from: number }): number {
  const { text } = params;
  let depth = 0;
  for (let i = params.from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      i = close < 0 ? text.length : close;
    } else if (c === '"' || c === '`') i = quoteEnd({ text, from: i + 1, quote: c });
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return text.length;
}

/** Removes `\` escapes, keeping the escaped character. */
function dropEscapes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c === '\\' && i + 1 < text.length) {
      out += text[i + 1] ?? '';
      i++;
    } else out += c;
  }
  return out;
}
