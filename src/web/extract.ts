import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** A page's readable text. */
export interface PageText {
  readonly title: string;
  /** The main text, paragraphs separated by blank lines; headings as "# ", list items as "- ". */
  readonly text: string;
}

/** The parts of linkedom's DOM read here (the project compiles without the DOM library's types). */
interface DomElement {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly children: ArrayLike<DomElement>;
  readonly innerHTML: string;
}
interface DomDocument {
  readonly body: DomElement | null;
  querySelector(selector: string): DomElement | null;
}

/** A page parsed by linkedom. */
function parseDocument(params: { html: string }): DomDocument {
  return (parseHTML(params.html) as { document: DomDocument }).document;
}

/** Content types read as text as they are. */
const PLAIN = /^(text\/(plain|markdown|csv|xml)|application\/(json|xml|[a-z.+-]+\+(json|xml)))\b/;

/** The charset a Content-Type or the page's own <meta> names, if TextDecoder knows it. */
function charsetOf(params: { contentType: string; head: string }): string {
  const named = /charset=["']?([\w.:-]+)/i.exec(params.contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(params.head)?.[1];
  if (named === undefined) return 'utf-8';
  try {
    return new TextDecoder(named).encoding;
  } catch {
    return 'utf-8';
  }
}

/** Whitespace runs as one space. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Blocks whose text makes a paragraph of its own. */
const BLOCKS = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'PRE', 'BLOCKQUOTE', 'TR', 'DT', 'DD', 'FIGCAPTION']);

/** Readable text of an HTML fragment: each block a paragraph (blocks inside blocks counted once). */
function blocksText(params: { html: string }): string {
  const document = parseDocument({ html: `<!doctype html><html><body>${params.html}</body></html>` });
  const out: string[] = [];
  const walk = (node: DomElement): void => {
    for (const child of Array.from(node.children)) {
      if (!BLOCKS.has(child.tagName)) {
        walk(child);
        continue;
      }
      const text = child.tagName === 'PRE' ? (child.textContent ?? '').replace(/\s+$/, '') : squeeze(child.textContent ?? '');
      if (text === '') continue;
      const level = /^H([1-6])$/.exec(child.tagName)?.[1];
      out.push(level !== undefined ? `${'#'.repeat(Number(level))} ${text}` : child.tagName === 'LI' ? `- ${text}` : text);
    }
  };
  if (document.body === null) return '';
  walk(document.body);
  // A fragment with text outside any block (a bare <div> of text) still gives its text.
  return out.length > 0 ? out.join('\n\n') : squeeze(document.body.textContent ?? '');
}

/**
 * The readable text of a fetched body: an HTML page's article by Mozilla's Readability (navigation, ads, comments and
 * footers left out; the whole body's text when it finds no article), plain text, JSON and XML as they are. Anything else
 * (images, PDFs, archives) is `undefined`: not a text page.
 */
export function extractText(params: { body: Buffer; contentType: string; url: string }): PageText | undefined {
  const head = params.body.subarray(0, 2048).toString('latin1');
  const type = params.contentType.split(';')[0]?.trim() ?? '';
  const looksHtml = type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && /<html|<!doctype html/i.test(head));
  const text = new TextDecoder(charsetOf({ contentType: params.contentType, head })).decode(params.body);
  if (!looksHtml) return PLAIN.test(type) || type === '' ? { title: '', text } : undefined;
  const document = parseDocument({ html: text });
  const title = squeeze(document.querySelector('title')?.textContent ?? '');
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  const body = article?.content ? blocksText({ html: article.content }) : blocksText({ html: document.body?.innerHTML ?? '' });
  return { title: squeeze(article?.title ?? '') || title, text: body };
}
