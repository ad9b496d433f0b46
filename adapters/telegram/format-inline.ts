import type { MarkedToken, Token, Tokens } from 'marked';
import { decodeReferences, linkHref } from './format-text.js';
import type { TelegramWriter, WrapTag } from './format-writer.js';

/** What inline rendering needs: where to write, and whether link targets must be spelled out (plain text). */
export interface InlineContext {
  readonly writer: TelegramWriter;
  /** True for the plain-text fallback: a link's URL follows its label in parentheses. */
  readonly spellOutLinks: boolean;
}

/** Check boxes of task list items. */
const CHECKBOX = { checked: '☑ ', unchecked: '☐ ' } as const;

/** The lexer is used without extensions, so every token it returns is one of marked's own kinds. */
export function asMarked(params: { token: Token }): MarkedToken {
  return params.token as MarkedToken;
}

/** Renders inline tokens (a paragraph's or heading's content) into the writer. */
export function renderInline(params: { tokens: readonly Token[]; ctx: InlineContext }): void {
  for (const token of params.tokens) renderInlineToken({ token: asMarked({ token }), ctx: params.ctx });
}

/** Renders tokens inside a wrapper tag. */
function wrapped(params: { tag: WrapTag; href?: string; tokens: readonly Token[]; ctx: InlineContext }): void {
  const { writer } = params.ctx;
  writer.open(params.href === undefined ? { tag: params.tag } : { tag: params.tag, href: params.href });
  renderInline({ tokens: params.tokens, ctx: params.ctx });
  writer.close();
}

/** Renders one inline token; block kinds that turn up inline are written as their source text. */
function renderInlineToken(params: { token: MarkedToken; ctx: InlineContext }): void {
  const { token, ctx } = params;
  const { writer } = ctx;
  switch (token.type) {
    case 'strong':
      return wrapped({ tag: 'b', tokens: token.tokens, ctx });
    case 'em':
      return wrapped({ tag: 'i', tokens: token.tokens, ctx });
    case 'del':
      return wrapped({ tag: 's', tokens: token.tokens, ctx });
    case 'codespan':
      return writer.code({ text: token.text });
    case 'br':
      return writer.text({ text: '\n' });
    case 'escape':
      return writer.text({ text: token.text });
    case 'text':
      if (token.tokens !== undefined && token.tokens.length > 0) return renderInline({ tokens: token.tokens, ctx });
      return writer.text({ text: paragraphText({ token }) });
    case 'link':
      return renderLink({ token, ctx });
    case 'image':
      return renderImage({ token, ctx });
    case 'checkbox':
      return writer.text({ text: token.checked ? CHECKBOX.checked : CHECKBOX.unchecked });
    default:
      // Raw HTML (and any block kind that turns up inline) is shown as the text it was written as.
      return writer.text({ text: token.raw });
  }
}

/**
 * The text of a text token: its source with character references decoded (marked's `text` half-encodes '&'
 * when numeric references occur) and, as in CommonMark, the indentation of wrapped lines removed.
 */
function paragraphText(params: { token: Tokens.Text }): string {
  const { token } = params;
  const text = token.escaped === true ? token.raw : decodeReferences({ text: token.raw });
  return text.replace(/\n[ \t]+/g, '\n');
}

/** A link: an `a` wrapper for a safe URL; otherwise its label as text. The plain fallback spells the URL out. */
function renderLink(params: { token: Tokens.Link; ctx: InlineContext }): void {
  const { token, ctx } = params;
  const literal = token.autolink === true;
  const href = linkHref({ href: token.href, literal });
  const label = token.tokens.length > 0 ? token.tokens : null;
  if (href === null) {
    if (label !== null) renderInline({ tokens: label, ctx });
    else ctx.writer.text({ text: token.href });
    return;
  }
  if (label === null) {
    ctx.writer.open({ tag: 'a', href });
    ctx.writer.text({ text: token.href });
    ctx.writer.close();
    return;
  }
  wrapped({ tag: 'a', href, tokens: label, ctx });
  if (ctx.spellOutLinks && !literal && token.text !== token.href) ctx.writer.text({ text: ` (${token.href})` });
}

/** An image becomes a link to it, labelled with its alt text (or the URL when there is none). */
function renderImage(params: { token: Tokens.Image; ctx: InlineContext }): void {
  const { token, ctx } = params;
  const href = linkHref({ href: token.href, literal: false });
  const alt = token.text.trim() === '' ? null : token.tokens;
  if (href === null) {
    if (alt !== null) renderInline({ tokens: alt, ctx });
    else ctx.writer.text({ text: token.href });
    return;
  }
  if (alt === null) {
    ctx.writer.open({ tag: 'a', href });
    ctx.writer.text({ text: token.href });
    ctx.writer.close();
    return;
  }
  wrapped({ tag: 'a', href, tokens: alt, ctx });
  if (ctx.spellOutLinks) ctx.writer.text({ text: ` (${token.href})` });
}
