/** Characters that need escaping outside a glob's own syntax. */
const REGEX_SPECIALS = new Set(['.', '+', '^', '$', '(', ')', '|', '\\', '/']);

/**
 * Compiles a glob (`**` any depth, `*` and `?` within one segment, `{a,b}` alternatives, `[...]` classes)
 * to a RegExp over '/'-separated relative paths. A glob without '/' matches the file name at any depth.
 */
export function globToRegExp(params: { glob: string }): RegExp {
  let glob = params.glob.trim().replace(/^\.\//, '');
  if (!glob.includes('/')) glob = `**/${glob}`;
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (c === '*') {
      if (glob.charAt(i + 1) === '*') {
        i += 1;
        if (glob.charAt(i + 1) === '/') {
          i += 1;
          out += '(?:.*/)?';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces += 1;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end;
      }
    } else if (REGEX_SPECIALS.has(c)) out += c === '/' ? '/' : `\\${c}`;
    else if (c === '}' || c === ']') out += `\\${c}`;
    else out += c;
  }
  out += ')'.repeat(braces);
  return new RegExp(`^${out}$`);
}
