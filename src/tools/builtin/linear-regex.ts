import v8 from 'node:v8';
import { ToolError } from '../../core/errors.js';
import { canonicalize } from './case-fold.js';
import { rewritePattern } from './search-pattern.js';
import { errorMessage } from '../../util/error-text.js';

// Lets `new RegExp(source, 'l')` use V8's linear-time engine (no catastrophic backtracking).
// It only adds the 'l' flag; regular expressions without it are unaffected.
v8.setFlagsFromString('--enable-experimental-regexp-engine');

/** True when this V8 accepted the flag above. */
const LINEAR_ENGINE = ((): boolean => {
  try {
    return new RegExp('a', 'l').test('a');
  } catch {
    return false;
  }
})();

/** A model-supplied pattern, compiled so that testing a line takes time linear in the line's length. */
export interface LinearPattern {
  /** Compiled with the 'l' flag; run it on `prepare(text)`. */
  regex: RegExp;
  /** The text to test: case-folded when ignoring case, else unchanged (same length and line breaks). */
  prepare: (text: string) => string;
}

/** Compiles a search pattern for the linear-time engine; a ToolError says what to change when it cannot. */
export function compileLinearPattern(params: { pattern: string; ignoreCase: boolean }): LinearPattern {
  const { pattern, ignoreCase } = params;
  try {
    // Compiling (never running) with the ordinary engine reports syntax errors in the usual words.
    new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    const reason = errorMessage(error);
    throw new ToolError(`pattern is not a valid regular expression: ${reason}`);
  }
  if (!LINEAR_ENGINE) {
    throw new ToolError(
      "search_files needs V8's linear-time regular expression engine, which this Node.js lacks; " +
        'use the terminal tool with grep instead.',
    );
  }
  try {
    // The original pattern decides what is supported (backreferences are only detectable before rewriting).
    new RegExp(pattern, 'l');
    const regex = new RegExp(rewritePattern({ pattern, ignoreCase }), 'l');
    return { regex, prepare: ignoreCase ? canonicalize : (text) => text };
  } catch {
    throw new ToolError(unsupportedMessage({ pattern }));
  }
}

/** Says which constructs of `pattern` the linear-time engine cannot run and what to do instead. */
export function unsupportedMessage(params: { pattern: string }): string {
  const { pattern } = params;
  const found: string[] = [];
  if (/\(\?<[=!]/.test(pattern)) found.push('lookbehind (?<=...) / (?<!...)');
  if (/\(\?[=!]/.test(pattern)) found.push('lookahead (?=...) / (?!...)');
  if (/\\[1-9]|\\k</.test(pattern)) found.push('backreferences such as \\1 or \\k<name>');
  const counts = [...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].some((m) => Number(m[1]) > 16 || Number(m[2] ?? 0) > 16);
  if (counts || (found.length === 0 && /\{\d/.test(pattern))) {
    found.push('large counted repetitions such as {0,50} (at most 16 copies in total; use * or + instead)');
  }
  const what = found.length > 0 ? found.join('; ') : 'this combination of constructs';
  return (
    `pattern cannot be used: search_files runs regular expressions on a linear-time engine (so no pattern can ` +
    `hang it), which does not support ${what}. Rewrite the pattern without them, e.g. search for a simpler ` +
    'pattern and read the matching lines.'
  );
}
