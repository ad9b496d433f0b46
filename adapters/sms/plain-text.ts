import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';

/** What an unordered list item starts with. */
const BULLET = '• ';
/** What a horizontal rule becomes (no longer than the shortest markdown rule). */
const RULE = '———';

/** A marked token as the union of its known kinds (extensions aside, which are rendered from their raw text). */
function known(params: { token: Token }): MarkedToken {
  return params.token as MarkedToken;
}

/**
 * Markdown as plain text for SMS: emphasis markers dropped, links kept as "text (url)" (just the URL when the
 * text is the URL), code fences removed around their code, headings as their text, "• " bullets, tables as
 * "a | b" rows. Never longer than the markdown, so a text split at the message limit still fits after it.
 */
export function toPlainText(params: { markdown: string }): string {
  const out = blocks({ tokens: Lexer.lex(params.markdown) }).replace(/[ \t]+$/gm, '').trim();
  return out.length <= params.markdown.trim().length ? out : params.markdown.trim();
}

/** Block tokens, separated by a blank line where the markdown had one, else by a line break. */
function blocks(params: { tokens: readonly Token[] }): string {
  let out = '';
  let blank = false;
  for (const raw of params.tokens) {
    const token = known({ token: raw });
    if (token.type === 'space') {
      blank = true;
      continue;
    }
    if (token.type === 'def') continue;
    const text = block({ token });
    if (out !== '') out += blank ? '\n\n' : '\n';
    out += text;
    blank = /\n[ \t]*\n\s*$/.test(token.raw);
  }
  return out;
}

/** One block token. */
function block(params: { token: MarkedToken }): string {
  const { token } = params;
  switch (token.type) {
    case 'paragraph':
    case 'heading':
      return inline({ tokens: token.tokens });
    case 'text':
      return token.tokens !== undefined ? inline({ tokens: token.tokens }) : token.text;
    case 'code':
      return token.text.replace(/\n+$/, '');
    case 'blockquote':
      return blocks({ tokens: token.tokens }).replace(/^/gm, '> ');
    case 'list':
      return list({ token });
    case 'table':
      return [token.header, ...token.rows].map((row) => row.map((cell) => inline({ tokens: cell.tokens })).join(' | ')).join('\n');
    case 'hr':
      return RULE;
    case 'html':
      return token.raw.trim();
    default:
      return inline({ tokens: [token] });
  }
}

/** A list: bullets become "• ", numbered items keep the number they were written with; nested blocks indented. */
function list(params: { token: Tokens.List }): string {
  return params.token.items
    .map((item) => {
      const written = /^\s*(\d+[.)])\s/.exec(item.raw)?.[1];
      const marker = params.token.ordered && written !== undefined ? `${written} ` : BULLET;
      const body = blocks({ tokens: item.tokens.filter((t) => t.type !== 'checkbox') });
      const box = item.task ? (item.checked === true ? '[x] ' : '[ ] ') : '';
      return marker + box + body.replace(/\n(?=.)/g, `\n${' '.repeat(marker.length)}`);
    })
    .join('\n');
}

/** Inline tokens: the words without their markers. */
function inline(params: { tokens: readonly Token[] }): string {
  return params.tokens.map((raw) => inlineToken({ token: known({ token: raw }) })).join('');
}

/** One inline token. */
function inlineToken(params: { token: MarkedToken }): string {
  const { token } = params;
  switch (token.type) {
    case 'strong':
    case 'em':
    case 'del':
      return inline({ tokens: token.tokens });
    case 'text':
      return token.tokens !== undefined ? inline({ tokens: token.tokens }) : token.text;
    case 'codespan':
    case 'escape':
      return token.text;
    case 'br':
      return '\n';
    case 'link': {
      const text = inline({ tokens: token.tokens });
      return text === token.href || text === '' ? token.href : `${text} (${token.href})`;
    }
    case 'image':
      return token.text === '' ? token.href : `${token.text} (${token.href})`;
    case 'html':
      return token.raw;
    case 'checkbox':
      return '';
    default:
      return 'raw' in token && typeof token.raw === 'string' ? token.raw : '';
  }
}
