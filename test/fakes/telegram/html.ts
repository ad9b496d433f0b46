import type { MessageEntity } from 'grammy/types';

/** Result of parsing a `parse_mode: 'HTML'` text: the shown text and its entities, or Telegram's error. */
export type HtmlParseResult =
  | { ok: true; text: string; entities: MessageEntity[] }
  | { ok: false; error: string };

const TAGS = new Set([
  'a', 'b', 'strong', 'i', 'em', 's', 'strike', 'del', 'u', 'ins',
  'tg-spoiler', 'tg-emoji', 'tg-time', 'span', 'pre', 'code', 'blockquote',
]);
const SIMPLE: Record<string, MessageEntity.CommonMessageEntity['type']> = {
  i: 'italic', em: 'italic', b: 'bold', strong: 'bold', s: 'strikethrough', strike: 'strikethrough',
  del: 'strikethrough', u: 'underline', ins: 'underline', 'tg-spoiler': 'spoiler', span: 'spoiler',
};
/** tdlib's priorities for ordering entities that start at the same offset with the same length. */
const PRIORITY: Partial<Record<MessageEntity['type'], number>> = {
  blockquote: 0, expandable_blockquote: 0, pre: 11, code: 20, text_link: 49, bold: 90, italic: 91,
  underline: 92, strikethrough: 93, spoiler: 94, custom_emoji: 99,
};

const AMP = 0x26, LT = 0x3c, GT = 0x3e, SLASH = 0x2f, EQ = 0x3d, QUOTE = 0x22, APOS = 0x27;

interface OpenTag {
  tag: string;
  /** The tag's meaningful attribute: href, language, spoiler class, emoji id, expandable flag or tg-time unix. */
  argument: string;
  /** For tg-time: its format attribute. */
  format: string;
  offset: number;
  outStart: number;
}

/** An entity being built; `codeLanguage` holds a <code> language until an enclosing <pre> claims it. */
interface Draft {
  entity: MessageEntity;
  codeLanguage: string;
}

/**
 * Parses Telegram HTML exactly as tdlib's parse_html does (the Bot API server uses it): the same tags,
 * entity decoding and error messages with UTF-8 byte offsets, e.g. `Unsupported start tag "div" at byte offset 0`.
 */
export function parseHtml(params: { html: string }): HtmlParseResult {
  const src = Buffer.from(params.html, 'utf8');
  const at = (i: number): number => (i < src.length ? (src[i] ?? 0) : 0);
  const out: number[] = [];
  const entities: Draft[] = [];
  const open: OpenTag[] = [];
  let utf16 = 0;
  let surrogate = false;
  const fail = (error: string): HtmlParseResult => ({ ok: false, error });

  for (let i = 0; i < src.length; i++) {
    const c = at(i);
    if (c === AMP) {
      const decoded = decodeEntity(src, i);
      if (decoded) {
        i = decoded.end - 1;
        utf16 += decoded.code > 0xffff ? 2 : 1;
        if (decoded.code >= 0xd800 && decoded.code <= 0xdfff) surrogate = true;
        else out.push(...Buffer.from(String.fromCodePoint(decoded.code), 'utf8'));
        continue;
      }
    }
    if (c !== LT) {
      if ((c & 0xc0) !== 0x80) utf16 += c >= 0xf0 ? 2 : 1;
      out.push(c);
      continue;
    }
    const begin = i++;
    if (at(i) !== SLASH) {
      while (!isSpace(at(i)) && at(i) !== GT) i++;
      if (at(i) === 0) return fail(`Unclosed start tag at byte offset ${begin}`);
      const tag = lower(src.subarray(begin + 1, i));
      if (!TAGS.has(tag)) return fail(`Unsupported start tag "${tag}" at byte offset ${begin}`);
      let argument = '';
      let format = '';
      while (at(i) !== GT) {
        while (at(i) !== 0 && isSpace(at(i))) i++;
        if (at(i) === GT) break;
        const nameStart = i;
        while (!isSpace(at(i)) && ![EQ, GT, SLASH, QUOTE, APOS].includes(at(i))) i++;
        const name = src.subarray(nameStart, i).toString('utf8');
        if (name === '') return fail(`Empty attribute name in the tag "${tag}" at byte offset ${begin}`);
        while (at(i) !== 0 && isSpace(at(i))) i++;
        if (at(i) !== EQ) {
          if (at(i) === 0) return fail(`Unclosed start tag "${tag}" at byte offset ${begin}`);
          if (tag === 'blockquote' && name === 'expandable') argument = '1';
          continue;
        }
        i++;
        while (at(i) !== 0 && isSpace(at(i))) i++;
        if (at(i) === 0) return fail(`Unclosed start tag "${tag}" at byte offset ${begin}`);
        let value: string;
        if (at(i) !== APOS && at(i) !== QUOTE) {
          const tokenStart = i;
          while (isAlnum(at(i)) || at(i) === 0x2e || at(i) === 0x2d) i++;
          value = lower(src.subarray(tokenStart, i));
          if (!isSpace(at(i)) && at(i) !== GT) return fail(`Unexpected end of name token at byte offset ${tokenStart}`);
        } else {
          const end = at(i++);
          const bytes: number[] = [];
          while (at(i) !== end && at(i) !== 0) {
            const decoded = at(i) === AMP ? decodeEntity(src, i) : undefined;
            if (decoded) {
              bytes.push(...Buffer.from(String.fromCodePoint(decoded.code), 'utf8'));
              i = decoded.end;
            } else {
              bytes.push(at(i++));
            }
          }
          if (at(i) === end) i++;
          value = Buffer.from(bytes).toString('utf8');
        }
        if (at(i) === 0) return fail(`Unclosed start tag at byte offset ${begin}`);
        if (tag === 'tg-time' && name === 'format') format = value;
        argument = attributeArgument({ tag, name, value }) ?? argument;
      }
      if (tag === 'span' && argument !== 'spoiler') {
        return fail(`Tag "span" must have class "tg-spoiler" at byte offset ${begin}`);
      }
      open.push({ tag, argument, format, offset: utf16, outStart: out.length });
    } else {
      const top = open[open.length - 1];
      if (top === undefined) return fail(`Unexpected end tag at byte offset ${begin}`);
      while (!isSpace(at(i)) && at(i) !== GT) i++;
      const endTag = lower(src.subarray(begin + 2, i));
      while (isSpace(at(i)) && at(i) !== 0) i++;
      if (at(i) !== GT) return fail(`Unclosed end tag at byte offset ${begin}`);
      if (endTag !== '' && endTag !== top.tag) {
        return fail(`Unmatched end tag at byte offset ${begin}, expected "</${top.tag}>", found "</${endTag}>"`);
      }
      if (utf16 > top.offset) {
        const error = closeEntity({ entities, top, length: utf16 - top.offset, inner: Buffer.from(out.slice(top.outStart)) });
        if (error !== undefined) return fail(error);
      }
      open.pop();
    }
  }
  const unclosed = open[open.length - 1];
  if (unclosed) return fail(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  if (surrogate) {
    return fail('Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units');
  }
  return { ok: true, text: Buffer.from(out).toString('utf8'), entities: sortEntities(entities.map((d) => d.entity)) };
}

function attributeArgument(params: { tag: string; name: string; value: string }): string | undefined {
  const { tag, name, value } = params;
  if (tag === 'a' && name === 'href') return value;
  if (tag === 'code' && name === 'class' && value.startsWith('language-')) return value.slice(9);
  if (tag === 'span' && name === 'class' && value.startsWith('tg-')) return value.slice(3);
  if (tag === 'tg-emoji' && name === 'emoji-id') return value;
  if (tag === 'blockquote' && name === 'expandable') return '1';
  if (tag === 'tg-time' && name === 'unix') return value;
  return undefined;
}

/** Adds the entity for a closed tag; returns an error message when the tag's argument is invalid. */
function closeEntity(params: { entities: Draft[]; top: OpenTag; length: number; inner: Buffer }): string | undefined {
  const { entities, top, length } = params;
  const offset = top.offset;
  const last = entities[entities.length - 1];
  const sameSpan = last !== undefined && last.entity.offset === offset && last.entity.length === length;
  const add = (entity: MessageEntity, codeLanguage = ''): void => {
    entities.push({ entity, codeLanguage });
  };
  const simple = SIMPLE[top.tag];
  if (simple !== undefined) {
    add({ type: simple, offset, length });
  } else if (top.tag === 'tg-emoji') {
    if (!/^-?\d+$/.test(top.argument) || BigInt(top.argument) === 0n) return 'Invalid custom emoji identifier specified';
    add({ type: 'custom_emoji', offset, length, custom_emoji_id: top.argument });
  } else if (top.tag === 'tg-time') {
    const unix = Number(top.argument);
    if (top.argument !== '' && Number.isInteger(unix)) {
      const format = (/^(r|w?[dD]?[tT]?)$/.test(top.format) ? top.format : '') as MessageEntity.DateTimeMessageEntity['date_time_format'];
      add({ type: 'date_time', offset, length, unix_time: unix, date_time_format: format });
    }
  } else if (top.tag === 'a') {
    const url = checkedLink(top.argument !== '' ? top.argument : params.inner.toString('utf8'));
    if (url !== '') add({ type: 'text_link', offset, length, url });
  } else if (top.tag === 'pre') {
    if (sameSpan && last.entity.type === 'code' && last.codeLanguage !== '') {
      last.entity = { type: 'pre', offset, length, language: last.codeLanguage };
    } else {
      add({ type: 'pre', offset, length });
    }
  } else if (top.tag === 'code') {
    if (sameSpan && last.entity.type === 'pre' && top.argument !== '') {
      last.entity = { type: 'pre', offset, length, language: top.argument };
    } else {
      add({ type: 'code', offset, length }, top.argument);
    }
  } else {
    add({ type: top.argument !== '' ? 'expandable_blockquote' : 'blockquote', offset, length });
  }
  return undefined;
}

/** A link Telegram accepts, normalized like tdlib (scheme added, host lower-cased), or '' when invalid. */
function checkedLink(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === '') return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (!['http:', 'https:', 'tg:', 'ton:', 'tonsite:'].includes(url.protocol)) return '';
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname.includes('.')) return '';
    return url.href;
  } catch {
    return '';
  }
}

function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  return [...entities].sort(
    (a, b) => a.offset - b.offset || b.length - a.length || (PRIORITY[a.type] ?? 50) - (PRIORITY[b.type] ?? 50),
  );
}

/** Decodes &lt; &gt; &amp; &quot; and numeric references starting at `pos`, or undefined (then '&' is literal). */
function decodeEntity(src: Buffer, pos: number): { code: number; end: number } | undefined {
  const at = (i: number): number => (i < src.length ? (src[i] ?? 0) : 0);
  let end = pos + 1;
  let code = 0;
  if (at(pos + 1) === 0x23) {
    end++;
    if (at(pos + 2) === 0x78) {
      end++;
      while (isHex(at(end))) code = code * 16 + parseInt(String.fromCharCode(at(end++)), 16);
    } else {
      while (at(end) >= 0x30 && at(end) <= 0x39) code = code * 10 + at(end++) - 0x30;
    }
    if (code === 0 || code >= 0x10ffff || end - pos >= 10) return undefined;
  } else {
    while (isAlpha(at(end))) end++;
    const named: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22 };
    const value = named[src.subarray(pos + 1, end).toString('latin1')];
    if (value === undefined) return undefined;
    code = value;
  }
  return { code, end: at(end) === 0x3b ? end + 1 : end };
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c || c === 0;
}

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isAlnum(c: number): boolean {
  return isAlpha(c) || (c >= 0x30 && c <= 0x39);
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** ASCII-only lower-casing of raw bytes, like td::to_lower. */
function lower(bytes: Buffer): string {
  return Buffer.from(bytes.map((b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b))).toString('utf8');
}
