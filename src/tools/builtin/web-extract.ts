import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolContext } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import { webFailure, type ExtractedPage } from '../../web/capability.js';

/** URLs one call may read (Hermes Agent's limit). */
const MAX_URLS = 5;

const input = z.object({
  urls: z.array(z.string().min(1)).min(1).max(MAX_URLS).optional(),
  url: z.string().min(1).optional(),
});

/** Where full texts of long pages are kept, under the workspace. */
const SAVED_DIR = 'web';

/** The file a long page's full text is saved in: web/<host>-<hash of the URL>.md. */
function savedName(params: { url: string }): string {
  let host = 'page';
  try {
    host = new URL(params.url).hostname.replace(/[^a-z0-9.-]+/gi, '_') || 'page';
  } catch {
    // Not a URL: the hash alone tells pages apart.
  }
  return path.join(SAVED_DIR, `${host}-${createHash('sha256').update(params.url).digest('hex').slice(0, 10)}.md`);
}

/** Cuts `text` near `at`, at a line break (else a space) within the last fifth of the way. */
function cutNear(params: { text: string; at: number; from: 'start' | 'end' }): number {
  const { text, at } = params;
  const slack = Math.floor(at / 5);
  if (params.from === 'start') {
    const line = text.lastIndexOf('\n', at);
    if (line > at - slack) return line;
    const space = text.lastIndexOf(' ', at);
    return space > at - slack ? space : at;
  }
  const start = text.length - at;
  const line = text.indexOf('\n', start);
  if (line !== -1 && line < start + slack) return line + 1;
  const space = text.indexOf(' ', start);
  return space !== -1 && space < start + slack ? space + 1 : start;
}

/**
 * The page's text as the model gets it: whole within `limit` characters; longer, the first two thirds and the last third
 * of the limit with the full text saved under the workspace and a line saying where and how to read the middle.
 */
async function windowed(params: { page: ExtractedPage; limit: number; ctx: ToolContext }): Promise<string> {
  const { page, limit, ctx } = params;
  const text = page.text;
  if (text.length <= limit) return text;
  const file = savedName({ url: page.finalUrl });
  const abs = path.join(ctx.workspace, file);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, `${page.title ? `# ${page.title}\n\n` : ''}Source: ${page.finalUrl}\n\n${text}\n`);
  const headEnd = cutNear({ text, at: Math.floor((limit * 2) / 3), from: 'start' });
  const tailStart = cutNear({ text, at: Math.floor(limit / 3), from: 'end' });
  const lines = text.split('\n').length + 4;
  const omitted = tailStart - headEnd;
  return [
    text.slice(0, headEnd).trimEnd(),
    `\n[… ${omitted.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters left out here. The whole text is in ${file} (${lines} lines): read_file with offset to read the middle.]\n`,
    text.slice(tailStart).trimStart(),
  ].join('\n');
}

/** One page's block: fenced (the page is other people's text, never instructions), with its title and address. */
function block(params: { page: ExtractedPage; body: string }): string {
  const { page } = params;
  const attr = (value: string): string => value.replaceAll('"', "'").replace(/\s+/g, ' ');
  const cut = page.truncated ? '\n[The page was longer than web.max_bytes; only its start was downloaded.]' : '';
  const body = params.body.replaceAll('</web_page>', '<\\/web_page>');
  return `<web_page url="${attr(page.finalUrl)}"${page.title ? ` title="${attr(page.title)}"` : ''}>\n${body}${cut}\n</web_page>`;
}

/**
 * `web_extract`: the readable text of web pages (Hermes Agent's `{urls}`, up to 5; `{url}` for one), navigation and
 * clutter left out by Readability. Pages on private, loopback and link-local addresses are refused (redirects
 * included) unless `web.allow_private`.
 */
export const webExtractTool = defineTool({
  name: 'web_extract',
  // A long page's window says itself where the rest is (its footer names the saved file and read_file).
  description: "Read web pages' main text.",
  input,
  // Written out: Hermes Agent's `urls` alone (`url` for one page is taken too, not advertised), without the checks the
  // model needs no telling of (minLength, minItems).
  parameters: { type: 'object', properties: { urls: { type: 'array', items: { type: 'string' }, maxItems: MAX_URLS } } },
  parallel: 'safe',
  toolsets: ['web'],
  progress: { emoji: '🌐', arg: 'url' },
  handler: async (args, ctx) => {
    const web = ctx.web;
    if (web === undefined) throw new ToolError('web_extract is not available here.');
    const urls = [...new Set([...(args.urls ?? []), ...(args.url !== undefined ? [args.url] : [])])];
    if (urls.length === 0) throw new ToolError('web_extract needs urls (a list of up to 5 addresses) or url.');
    if (urls.length > MAX_URLS) throw new ToolError(`web_extract reads at most ${MAX_URLS} pages per call; ${urls.length} were given.`);
    const limit = web.settings().extractCharLimit;
    const blocks = await Promise.all(
      urls.map(async (url) => {
        try {
          const page = await web.extract({ url, signal: ctx.signal });
          return block({ page, body: await windowed({ page, limit, ctx }) });
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          return `<web_page url="${url.replaceAll('"', "'")}">\n[Not read: ${webFailure({ error })}]\n</web_page>`;
        }
      }),
    );
    return blocks.join('\n\n');
  },
});
