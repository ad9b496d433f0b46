import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  query: z.string().min(1).describe('Keywords, a "phrase", OR / NOT, or a prefix like deploy*.'),
  limit: z.number().int().min(1).optional().describe('Sessions to return (default 3, max 5).'),
});

/** `session_search`: full-text search over the profile's earlier conversations (Hermes Agent's `{query, limit?}`). */
export const sessionSearchTool = defineTool({
  name: 'session_search',
  description:
    'Search your earlier conversations with this user (every past session, not the current one). Returns the best ' +
    'matching sessions with title, date, platform and the passages around the matches.\n' +
    'Use it when the user refers to the past ("last time", "remember", "as I said"), asks what was decided or how ' +
    'something was fixed before, or names something you do not have here: look it up rather than guess or ask again.\n' +
    'Words must all match by default; use OR for alternatives (invoice OR receipt), "quotes" for phrases, NOT to ' +
    'exclude, * for prefixes. Nothing found: try fewer or other words. Output: at most 7,000 characters, fenced as ' +
    'background (a condensed answer when an auxiliary model is configured). To keep a fact for good, use memory.',
  input,
  parallel: 'safe',
  toolsets: ['search', 'session_search'],
  progress: { emoji: '🔍', arg: 'query', style: 'quoted' },
  handler: async (args, ctx) => {
    if (ctx.sessionSearch === undefined) throw new ToolError('session_search is not available here: this agent has no stored conversations to search.');
    return ctx.sessionSearch.search({
      query: args.query,
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
      ...(ctx.sessionId !== undefined ? { excludeSessionId: ctx.sessionId } : {}),
      signal: ctx.signal,
    });
  },
});
