import { Marked, type Tokens } from 'marked';

/** Link targets allowed in the HTML part; anything else (javascript:, data:, file:) stays text. */
const safeHref = /^(?:https?:|mailto:)/i;

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(params: { text: string }): string {
  return params.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * The renderer: GFM Markdown, but raw HTML the model wrote is shown as text (escaped), links only for http(s)
 * and mailto, and images become links (no remote images that load by themselves).
 */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      const escaped = escapeHtml({ text: token.text });
      return 'block' in token && token.block ? `<p>${escaped}</p>\n` : escaped;
    },
    link(token: Tokens.Link): string | false {
      if (safeHref.test(token.href.trim())) return false;
      return this.parser.parseInline(token.tokens);
    },
    image(token: Tokens.Image): string {
      const label = escapeHtml({ text: token.text || token.href });
      if (!safeHref.test(token.href.trim())) return label;
      return `<a href="${escapeHtml({ text: token.href.trim() })}">${label}</a>`;
    },
  },
});

/** The HTML alternative of a reply: its Markdown rendered, in a plain wrapper mail clients show well. */
export function renderHtml(params: { markdown: string }): string {
  const body = markdown.parse(params.markdown, { async: false });
  return `<!DOCTYPE html>\n<html><body><div style="font-family: sans-serif; line-height: 1.45;">\n${body}</div></body></html>\n`;
}
