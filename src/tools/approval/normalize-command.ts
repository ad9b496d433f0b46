import { expandBraces } from './brace-expand.js';
import { innerScript, pipedScript, stripWrappers } from './command-words.js';
import { envGlobAsFile } from './env-glob.js';

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
/** LONG_OPS by their first character (longest first still). */
const LONG_OPS_BY_FIRST: ReadonlyMap<string, readonly string[]> = new Map(
  [...OP_CHARS].map((c) => [c, LONG_OPS.filter((o) => o.startsWith(c))]),
);

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

/** Adds the segments of one script (a line, or the inside of a substitution); returns its tokens (none when too deep). */
function addScript(params: { text: string; depth: number; collector: Collector }): readonly Token[] | undefined {
  const { text, depth, collector } = params;
  if (depth > MAX_NESTING) {
    collector.complete = false;
    return undefined;
  }
  const tokens = lex({ text, depth, collector });
  addFunctionDefinitions({ tokens, collector });
  let pipeline: StrippedCommand[] = [];
  let simple: string[] = [];
  const endSimple = (): void => {
    if (simple.length === 0) return;
    const stripped = addSimpleCommand({ words: simple, depth, collector });
    if (stripped.words.length > 0) pipeline.push(stripped);
    simple = [];
  };
  const endPipeline = (): void => {
    endSimple();
    if (pipeline.length === 0) return;
    if (pipeline.length > 1) collector.segments.add(pipeline.map((c) => c.segment).join(' | '));
    for (let i = 1; i < pipeline.length; i++) {
      const [from, into] = [pipeline[i - 1], pipeline[i]];
      if (from === undefined || into === undefined) continue;
      if (pipeline.length > 2) collector.segments.add(`${from.segment} | ${into.segment}`);
      const piped = pipedScript({ from: from.words, into: into.words });
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
  return tokens;
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

/** A simple command with wrappers stripped: its words and their segment (joined by one space). */
interface StrippedCommand {
  words: string[];
  segment: string;
}

/** Adds one simple command (wrappers stripped) and any script it runs; returns the stripped command. */
function addSimpleCommand(params: { words: readonly string[]; depth: number; collector: Collector }): StrippedCommand {
  const { collector } = params;
  for (let i = 0; i + 1 < params.words.length; i++) {
    const redirect = REDIRECTS.get(params.words[i] ?? '');
    if (redirect !== undefined) collector.segments.add(`${redirect} ${params.words[i + 1] ?? ''}`);
  }
  const words = stripWrappers(params.words);
  const segment = words.join(' ');
  // Joined as written only when stripping changed something (else it is the same text).
  const unchanged = words.length === params.words.length && words[0] === params.words[0];
  if (!unchanged) {
    const asWritten = params.words.join(' ');
    if (asWritten.length > 0 && asWritten !== segment) collector.segments.add(asWritten);
  }
  if (segment.length === 0) return { words, segment };
  collector.segments.add(segment);
  // `cat .e*` opens .env: the segment is checked again with such a glob written as the file it matches.
  const globbed = words.map((w, k) => (k === 0 ? w : (envGlobAsFile(w) ?? w)));
  if (globbed.some((w, k) => w !== words[k])) collector.segments.add(globbed.join(' '));
  const script = innerScript({ words, segment });
  if (script !== undefined) addScript({ text: script, depth: params.depth + 1, collector });
  for (const command of findExecCommands({ words })) {
    if (params.depth + 1 > MAX_NESTING) collector.complete = false;
    else addSimpleCommand({ words: command, depth: params.depth + 1, collector });
  }
  return { words, segment };
}

/** Options of find that run a command of their own, up to `;` or `+`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The commands `find … -exec CMD … ;` runs (`find . -exec sh -c 'rm -rf {}' \;` runs `sh -c 'rm -rf {}'`). */
function findExecCommands(params: { words: readonly string[] }): string[][] {
  const { words } = params;
  if (words[0] !== 'find') return [];
  const commands: string[][] = [];
  for (let i = 1; i < words.length; i++) {
    if (!FIND_EXEC.has(words[i] ?? '')) continue;
    let end = i + 1;
    while (end < words.length && words[end] !== ';' && words[end] !== '+') end++;
    if (end > i + 1) commands.push(words.slice(i + 1, end));
    i = end;
  }
  return commands;
}

/** Splits a script into words (quotes and escapes removed, substitutions flattened) and operators. */
function lex(params: { text: string; depth: number; collector: Collector }): Token[] {
  return new ScriptLexer(params).lex();
}

/**
 * The lexer of one script: walks the text, building the word being read and the tokens so far. Its private steps take
 * positional arguments, as the closures they replace did: they run once per character run, and an object per call
 * made a 64 KiB command markedly slower.
 */
class ScriptLexer {
  private readonly text: string;
  private readonly depth: number;
  private readonly collector: Collector;
  private readonly tokens: Token[] = [];
  /** The word being read, quotes and escapes removed. */
  private word = '';
  /** A word has started (`''` is an empty word, not none). */
  private inWord = false;
  /**
   * Positions in `word` of unquoted `{`, `,` and `}` (brace expansion: `rm -{r,f} /` is `rm -r -f /`), and how many
   * `${` parameter expansions are open (their braces are not brace syntax).
   */
  private braceMarks: number[] = [];
  private parameterDepth = 0;
  /** readDoubleQuoted's callbacks, made once per script. */
  private readonly appendText = (text: string): void => {
    this.word += text;
  };
  private readonly substituteText = (inner: string, opener: string): void => this.substitute(inner, opener);

  constructor(params: { text: string; depth: number; collector: Collector }) {
    this.text = params.text;
    this.depth = params.depth;
    this.collector = params.collector;
  }

  /** The script's tokens. */
  lex(): Token[] {
    let i = 0;
    while (i < this.text.length) i = this.step(i);
    this.endWord();
    return this.tokens;
  }

  /**
   * Reads what starts at `i`: an escape, a blank, a newline, a comment or a quoted string here, anything else in
   * `unquoted`. Returns the index after what it read.
   */
  private step(i: number): number {
    const { text } = this;
    const c = text[i] ?? '';
    const next = text[i + 1];
    if (c === '\\') {
      if (next !== undefined && next !== '\n') this.appendQuoted(next);
      return i + 2;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      this.endWord();
      return i + 1;
    }
    if (c === '\n') {
      this.endWord();
      this.tokens.push({ text: ';', op: true });
      return i + 1;
    }
    if (c === '#' && !this.inWord) {
      const newline = text.indexOf('\n', i);
      return newline < 0 ? text.length : newline;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const stop = close < 0 ? text.length : close;
      this.appendQuoted(text.slice(i + 1, stop));
      return stop + 1;
    }
    if (c === '$' && next === "'") {
      const stop = quoteEnd({ text, from: i + 2, quote: "'" });
      this.appendQuoted(dropEscapes(text.slice(i + 2, stop)));
      return stop + 1;
    }
    if (c === '"') {
      this.inWord = true;
      return readDoubleQuoted({ text, from: i + 1, append: this.appendText, substitute: this.substituteText });
    }
    if (c === '`') {
      const close = quoteEnd({ text, from: i + 1, quote: '`' });
      this.substitute(text.slice(i + 1, close), '$(');
      return close + 1;
    }
    return this.unquoted(i);
  }

  /** Reads an unquoted `$IFS`, substitution or operator at `i`, else a run of ordinary characters; returns the index after it. */
  private unquoted(i: number): number {
    const { text } = this;
    const c = text[i] ?? '';
    const ifs = c === '$' ? ifsLength({ text, from: i }) : 0;
    if (ifs > 0) {
      // Unquoted $IFS / ${IFS} / ${IFS:…} splits words: `rm${IFS}-rf${IFS}/` runs `rm -rf /`.
      this.endWord();
      return i + ifs;
    }
    if ((c === '$' || c === '<' || c === '>') && text[i + 1] === '(') {
      const close = closingParen({ text, from: i + 2 });
      this.substitute(text.slice(i + 2, close), `${c}(`);
      return close + 1;
    }
    if (OP_CHARS.has(c)) {
      this.endWord();
      const op = LONG_OPS_BY_FIRST.get(c)?.find((o) => text.startsWith(o, i)) ?? c;
      this.tokens.push({ text: op, op: true });
      return i + op.length;
    }
    // A run of ordinary characters is appended at once (a `#` inside a word is ordinary).
    const stop = runEnd({ text, from: i + 1, special: WORD_SPECIAL });
    this.appendPlain(text.slice(i, stop));
    this.inWord = true;
    return stop;
  }

  /** Ends the word being read (if any): it becomes a token, or the words its braces expand to. */
  private endWord(): void {
    if (this.inWord && this.braceMarks.length > 0) {
      const expanded = expandBraces({ word: this.word, marks: this.braceMarks });
      if (expanded === undefined) this.collector.complete = false;
      for (const w of expanded ?? [this.word]) this.tokens.push({ text: w, op: false });
    } else if (this.inWord) this.tokens.push({ text: this.word, op: false });
    this.word = '';
    this.inWord = false;
    this.braceMarks = [];
    this.parameterDepth = 0;
  }

  /** Appends quoted or escaped text (its braces are not brace syntax); the word has started even when the text is empty. */
  private appendQuoted(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  /** Appends a run of unquoted ordinary characters, marking its brace syntax. */
  private appendPlain(run: string): void {
    if (/[{},]/.test(run)) {
      for (let k = 0; k < run.length; k++) {
        const ch = run[k];
        const previous = k > 0 ? run[k - 1] : this.word[this.word.length - 1];
        if (ch === '{' && previous === '$') this.parameterDepth++;
        else if (ch === '}' && this.parameterDepth > 0) this.parameterDepth--;
        else if (this.parameterDepth === 0 && (ch === '{' || ch === '}' || ch === ',')) this.braceMarks.push(this.word.length + k);
      }
    }
    this.word += run;
  }

  /** Adds the segments of a substitution's inside and appends it, flattened, after `opener` (`$(`, `<(`, `>(`). */
  private substitute(inner: string, opener: string): void {
    const innerTokens = addScript({ text: inner, depth: this.depth + 1, collector: this.collector });
    // Flattened: the inside's words and operators separated by one space (as written when nested too deeply).
    this.word += `${opener}${innerTokens === undefined ? inner : innerTokens.map((t) => t.text).join(' ')})`;
    this.inWord = true;
  }
}

/** Length of an unquoted `$IFS`, `${IFS}` or `${IFS…}` expansion starting at `from`, or 0 when there is none. */
function ifsLength(params: { text: string; from: number }): number {
  const { text, from } = params;
  if (text.startsWith('${IFS', from) && /[}:#%/^,@[-]/.test(text[from + 5] ?? '')) {
    const close = text.indexOf('}', from);
    return close < 0 ? text.length - from : close + 1 - from;
  }
  if (text.startsWith('$IFS', from) && !/[A-Za-z0-9_]/.test(text[from + 4] ?? '')) return 4;
  return 0;
}

/** Marks the ASCII codes of `chars`. */
function codeTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let k = 0; k < chars.length; k++) table[chars.charCodeAt(k)] = 1;
  return table;
}

/** Characters that end a run of ordinary characters in a word, and in a double-quoted string. */
const WORD_SPECIAL = codeTable(' \t\r\n\\\'"`$<>;&|()');
const QUOTED_SPECIAL = codeTable('"\\`$');

/** Index of the first character at or after `from` that `special` marks, or the text's length. */
function runEnd(params: { text: string; from: number; special: Uint8Array }): number {
  const { text, special } = params;
  let i = params.from;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < 128 && special[code] === 1) break;
    i++;
  }
  return i;
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
      const stop = runEnd({ text, from: i + 1, special: QUOTED_SPECIAL });
      append(text.slice(i, stop));
      i = stop;
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

/** The characters bash's `$'…'` writes for `\n`, `\t`… (other escaped characters stand for themselves). */
const ANSI_C_SIMPLE: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * The text of a `$'…'` string as bash reads it: `\xHH`, `\NNN` (octal), `\uHHHH`, `\UHHHHHHHH`, `\cX` and `\n`-style
 * escapes decoded (`$'\x72\x6d'` is `rm`); any other escaped character stands for itself.
 */
function dropEscapes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const e = text[i + 1] ?? '';
    const code = (pattern: RegExp, from: number, radix: number): number | undefined => {
      const digits = pattern.exec(text.slice(from, from + 8))?.[0];
      if (digits === undefined || digits === '') return undefined;
      i = from + digits.length - 1;
      return Number.parseInt(digits, radix);
    };
    let decoded: number | undefined;
    if (e === 'x') decoded = code(/^[0-9a-fA-F]{1,2}/, i + 2, 16);
    else if (e === 'u') decoded = code(/^[0-9a-fA-F]{1,4}/, i + 2, 16);
    else if (e === 'U') decoded = code(/^[0-9a-fA-F]{1,8}/, i + 2, 16);
    else if (e >= '0' && e <= '7') decoded = code(/^[0-7]{1,3}/, i + 1, 8);
    else if (e === 'c' && i + 2 < text.length) {
      decoded = (text.charCodeAt(i + 2) & 0x1f);
      i += 2;
    }
    if (decoded !== undefined) {
      out += decoded <= 0x10ffff ? String.fromCodePoint(decoded) : '';
      continue;
    }
    out += ANSI_C_SIMPLE[e] ?? e;
    i++;
  }
  return out;
}
