import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import { webFailure } from '../../web/capability.js';

const input = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(10).optional(),
});

/** Hits returned when the model gives no limit. */
const DEFAULT_LIMIT = 5;

/** `web_search`: the configured search service's hits for a query (Hermes Agent's `{query, limit?}`). */
export const webSearchTool = defineTool({
  name: 'web_search',
  description: 'Search the web: titles, URLs and snippets (limit 1-10, default 5). Read a hit with web_extract.',
  input,
  parallel: 'safe',
  toolsets: ['web'],
  offeredWith: 'web_search',
  progress: { emoji: '🔍', arg: 'query', style: 'quoted' },
  handler: async (args, ctx) => {
    if (ctx.web === undefined) throw new ToolError('web_search is not available here.');
    let hits;
    try {
      hits = await ctx.web.search({ query: args.query, limit: args.limit ?? DEFAULT_LIMIT, signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw new ToolError(`web_search failed: ${webFailure({ error })}`);
    }
    const quoted = args.query.replaceAll('"', "'");
    if (hits.length === 0) return `<web_search query="${quoted}">\nNo results.\n</web_search>`;
    const lines = hits.map((hit, i) => `${i + 1}. ${hit.title || hit.url}\n   ${hit.url}${hit.snippet ? `\n   ${hit.snippet}` : ''}`);
    // Snippets are other people's text: fenced, never instructions.
    return `<web_search query="${quoted}">\n${lines.join('\n').replaceAll('</web_search>', '<\\/web_search>')}\n</web_search>`;
  },
});
