import type { MarkedToken, Token, Tokens } from 'marked';
import { asMarked, renderInline, type InlineContext } from './format-inline.js';

/** What a horizontal rule becomes (three units, like the shortest markdown rule). */
const RULE_TEXT = '———';

/** The marker of an unordered list item. */
const BULLET = '• ';

/** True when a block's source ends with a blank line, so the next block follows after one. */
function endsWithBlankLine(params: { raw: string }): boolean {
  return /\n[ \t]*\n\s*$/.test(params.raw);
}

/**
 * Renders a sequence of block tokens. Blocks are separated by one line break, or by a blank line where the
 * markdown had one (runs of blank lines collapse to one). Link reference definitions write nothing.
 */
export function renderBlocks(params: { tokens: readonly Token[]; ctx: InlineContext }): void {
  let first = true;
  let blank = false;
  for (const raw of params.tokens) {
    const token = asMarked({ token: raw });
    if (token.type === 'space') {
      blank = true;
      continue;
    }
    if (token.type === 'def') continue;
    if (!first) params.ctx.writer.blockBreak({ blank });
    renderBlock({ token, ctx: params.ctx });
    first = false;
    blank = endsWithBlankLine({ raw: token.raw });
  }
}

/** Renders one block token. */
function renderBlock(params: { token: MarkedToken; ctx: InlineContext }): void {
  const { token, ctx } = params;
  const { writer } = ctx;
  switch (token.type) {
    case 'paragraph':
      return renderInline({ tokens: token.tokens, ctx });
    case 'text':
      if (token.tokens !== undefined) return renderInline({ tokens: token.tokens, ctx });
      return renderInline({ tokens: [token], ctx });
    case 'heading':
      writer.open({ tag: 'b' });
      renderInline({ tokens: token.tokens, ctx });
      return writer.close();
    case 'code': {
      // Trailing line breaks would only show as empty lines at the bottom of the block.
      const text = token.text.replace(/\n+$/, '');
      return writer.pre(token.lang === undefined ? { text } : { text, lang: token.lang });
    }
    case 'blockquote':
      writer.open({ tag: 'blockquote' });
      renderBlocks({ tokens: token.tokens, ctx });
      return writer.close();
    case 'list':
      return renderList({ token, ctx });
    case 'table':
      return writer.pre({ text: token.raw.replace(/\s+$/, '') });
    case 'hr':
      return writer.text({ text: RULE_TEXT });
    case 'html':
      // Indentation is dropped: inside list items marked re-indents (and expands tabs), which lengthens the text.
      return writer.text({ text: token.raw.trim().replace(/^[ \t]+/gm, '') });
    default:
      return renderInline({ tokens: [token], ctx });
  }
}

/**
 * The indentation for an item's further blocks: the marker's width in spaces, or none when some line of the
 * item is indented less than that in the markdown (a lazy line), so indenting never lengthens the text.
 */
function itemIndent(params: { item: Tokens.ListItem; width: number }): string {
  const lines = params.item.raw.split('\n').slice(1).filter((line) => line.trim() !== '');
  const fits = lines.every((line) => (/^[ \t]*/.exec(line)?.[0].length ?? 0) >= params.width);
  return fits ? ' '.repeat(params.width) : '';
}

/**
 * Renders a list as marker lines: "• item" or "N. item" (numbered from the list's start). An item's further
 * blocks (nested lists, paragraphs) start indented by the marker's width (see `itemIndent`); its wrapped
 * paragraph lines do not. Items are separated by a blank line where the markdown had one.
 */
function renderList(params: { token: Tokens.List; ctx: InlineContext }): void {
  const { token, ctx } = params;
  const { writer } = ctx;
  const start = typeof token.start === 'number' ? token.start : 1;
  token.items.forEach((item, index) => {
    if (index > 0) {
      const previous = token.items[index - 1];
      writer.blockBreak({ blank: previous !== undefined && endsWithBlankLine({ raw: previous.raw }) });
    }
    const marker = token.ordered ? `${start + index}. ` : BULLET;
    writer.text({ text: item.tokens.length === 0 ? marker.trimEnd() : marker });
    writer.pushIndent({ indent: itemIndent({ item, width: marker.length }) });
    // A tight task item starts with its check box as a block of its own; it belongs on the marker's line.
    const [head, ...rest] = item.tokens;
    const boxed = head !== undefined && head.type === 'checkbox';
    if (boxed) renderInline({ tokens: [head], ctx });
    renderBlocks({ tokens: boxed ? rest : item.tokens, ctx });
    writer.popIndent();
  });
}
