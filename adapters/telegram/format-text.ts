/**
 * Character-level helpers for Telegram HTML: escaping, entity decoding and link checks.
 * Telegram's HTML parser knows only &lt; &gt; &amp; &quot; and numeric references, so everything else is decoded
 * from the markdown (or left literal) and re-escaped here.
 */

/** Named character references decoded in markdown text; any other name stays literal text. */
const NAMED_REFERENCES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"], ['nbsp', '\u00a0'],
  ['copy', '©'], ['reg', '®'], ['trade', '™'], ['hellip', '…'], ['mdash', '—'], ['ndash', '–'],
  ['laquo', '«'], ['raquo', '»'], ['lsquo', '‘'], ['rsquo', '’'], ['ldquo', '“'], ['rdquo', '”'],
  ['middot', '·'], ['bull', '•'], ['deg', '°'], ['times', '×'], ['divide', '÷'], ['plusmn', '±'],
  ['euro', '€'], ['pound', '£'], ['yen', '¥'], ['cent', '¢'], ['sect', '§'], ['para', '¶'],
  ['larr', '←'], ['rarr', '→'], ['uarr', '↑'], ['darr', '↓'], ['harr', '↔'], ['ne', '≠'], ['le', '≤'], ['ge', '≥'],
]);

/** A character reference as CommonMark reads it: decimal, hexadecimal or named. */
const MARKDOWN_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/** The references Telegram's HTML parser resolves (used to read our own output back). */
const TELEGRAM_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(lt|gt|amp|quot));/g;

/** URL schemes that become links; anything else (javascript:, data:, relative paths) is shown as text. */
const LINK_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'tg:', 'mailto:']);

/** The character a numeric reference stands for; invalid code points become U+FFFD as in CommonMark. */
function fromCodePoint(params: { code: number }): string {
  const { code } = params;
  const invalid = code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
  return String.fromCodePoint(invalid ? 0xfffd : code);
}

/** Resolves one reference match; `named` decides which names are known. */
function resolveReference(params: {
  match: string;
  decimal: string | undefined;
  hex: string | undefined;
  name: string | undefined;
  named: (name: string) => string | undefined;
}): string {
  if (params.decimal !== undefined) return fromCodePoint({ code: Number.parseInt(params.decimal, 10) });
  if (params.hex !== undefined) return fromCodePoint({ code: Number.parseInt(params.hex, 16) });
  return (params.name === undefined ? undefined : params.named(params.name)) ?? params.match;
}

/** Decodes numeric and common named character references in markdown text; unknown names stay as written. */
export function decodeReferences(params: { text: string }): string {
  if (!params.text.includes('&')) return params.text;
  return params.text.replace(MARKDOWN_REFERENCE, (match: string, decimal?: string, hex?: string, name?: string) =>
    resolveReference({ match, decimal, hex, name, named: (n) => NAMED_REFERENCES.get(n) }),
  );
}

/** The text Telegram shows for a piece of its HTML: tags removed, the references it knows decoded. */
export function htmlToText(params: { html: string }): string {
  const text = params.html.replace(/<[^>]*>/g, '');
  const names: ReadonlyMap<string, string> = new Map([['lt', '<'], ['gt', '>'], ['amp', '&'], ['quot', '"']]);
  return text.replace(TELEGRAM_REFERENCE, (match: string, decimal?: string, hex?: string, name?: string) =>
    resolveReference({ match, decimal, hex, name, named: (n) => names.get(n) }),
  );
}

/** Escapes text for Telegram HTML: &, < and >. */
export function escapeHtml(params: { text: string }): string {
  return params.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value for Telegram HTML: &, <, > and ". */
export function escapeAttribute(params: { value: string }): string {
  return escapeHtml({ text: params.value }).replace(/"/g, '&quot;');
}

/**
 * The href to link to, or null when the destination must stay text: only absolute http(s), tg and mailto URLs
 * link. `literal` is true for autolinks, whose destination is not entity-decoded. The result is the URL's
 * normalized form (spaces and quotes percent-encoded).
 */
export function linkHref(params: { href: string; literal: boolean }): string | null {
  const raw = (params.literal ? params.href : decodeReferences({ text: params.href })).trim();
  if (raw === '' || !URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (!LINK_PROTOCOLS.has(url.protocol)) return null;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === '') return null;
  if (url.protocol === 'mailto:' && url.pathname === '') return null;
  return url.href;
}

/** A code block's language for `class="language-x"`: the first word of the info string, or null when none is usable. */
export function codeLanguage(params: { info: string | undefined }): string | null {
  const word = (params.info ?? '').trim().split(/\s+/)[0] ?? '';
  const clean = word.replace(/[^A-Za-z0-9_+#.-]/g, '');
  return clean === '' ? null : clean.slice(0, 32);
}
