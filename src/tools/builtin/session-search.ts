import { z } from 'zod';
import { defineTool, ToolError } from '../tool.js';

const input = z.object({
  query: z.string().min(1).describe('What to look for in past sessions: keywords, a "quoted phrase", OR / NOT, or a prefix like deploy*.'),
  limit: z.number().int().min(1).optional().describe('How many sessions to return (default 3, at most 5).'),
});

/** `session_search`: full-text search over the profile's earlier conversations (Hermes Agent's `{query, limit?}`). */
export const sessionSearchTool = defineTool({
  name: 'session_search',
  description:
    'Search your own earlier conversations with this user (every past session except the current one) and get back ' +
    'the best matching sessions, each with its title, date and platform and the passages around the matches.\n\n' +
    'Use it when the user refers to something from before ("last time", "remember when", "as I said"), asks what was ' +
    'decided or how something was fixed earlier, or mentions a project, person or detail you do not have in this ' +
    'conversation. Searching is quick: look it up rather than guess or ask the user to repeat themselves.\n\n' +
    'Syntax: words must all match (AND) by default; join alternatives with OR for broader recall (invoice OR receipt), ' +
    'quote exact phrases ("staging server"), exclude with NOT, match prefixes with *. If nothing comes back, try fewer ' +
    'or other words. The result is at most 7,000 characters, fenced as background from earlier conversations; when an ' +
    'auxiliary model is configured it is a condensed answer instead of raw passages. Only the memory tool keeps a fact permanently.',
  input,
  parallel: 'safe',
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
