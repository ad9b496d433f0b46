import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).optional(),
});

/** `session_search`: full-text search over the profile's earlier conversations (Hermes Agent's `{query, limit?}`). */
export const sessionSearchTool = defineTool({
  name: 'session_search',
  description:
    'Search your past conversations (not this one): the best matching sessions with passages, at most 7,000 characters. ' +
    "All words must match; OR, NOT, 'quoted phrase' and prefix* work.",
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
