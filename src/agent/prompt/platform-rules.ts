/** The platforms with their own formatting rules (the adapters' names). */
export const promptPlatforms = ['terminal', 'telegram', 'slack', 'discord', 'email', 'sms', 'api'] as const;

/** A platform the prompt has rules for. */
export type PromptPlatform = (typeof promptPlatforms)[number];

/**
 * How replies are shown on each platform, matching what its adapter does with the text: Telegram renders Markdown
 * as Telegram HTML (raw HTML is escaped, tables become a monospace block of their source); Slack converts Markdown
 * to mrkdwn (so the model writes ordinary Markdown, not mrkdwn, which the conversion would mangle); email sends the
 * text as the plain part and its Markdown rendered as the HTML part; SMS strips Markdown to plain text; the terminal
 * prints the text as it is.
 */
const rules: Readonly<Record<PromptPlatform, string>> = {
  terminal:
    'Replies are printed as they are in a terminal: Markdown is not rendered, so keep it light (short lists and code blocks are fine, no tables).',
  telegram:
    'Write Markdown: **bold**, *italic*, `code`, code blocks, [links](https://example.com), > quotes and lists are shown formatted. ' +
    'No tables (they show as raw source) and no HTML tags (they show as text).',
  slack:
    'Write ordinary Markdown: it is converted to Slack mrkdwn, so **bold**, *italic*, `code`, code blocks, [links](https://example.com) and lists show formatted. ' +
    'Do not write mrkdwn yourself (*bold* would turn italic, <url|text> breaks). No tables (Slack shows them as raw text).',
  discord:
    'Write Discord Markdown: **bold**, *italic*, `code`, code blocks, lists, > quotes and [links](https://example.com). No tables (Discord does not render them). A message holds at most 2000 characters; longer replies are split.',
  email:
    'Write like an email: plain paragraphs and simple lists, no Markdown tables, no headings beyond a short title line, little emphasis. ' +
    'The text is also sent as is to mail clients that show plain text, so it must read well without rendering.',
  api:
    'Replies go to an OpenAI-compatible client (a chat web UI, an app or a script) as they are: write ordinary Markdown (most clients render it), ' +
    'kept clean enough to read where it is shown raw. Files cannot be sent here: MEDIA lines are not delivered.',
  sms:
    'Plain text only, no Markdown at all (no asterisks, #, backticks, tables or [links](...); write URLs out). Keep replies short: an SMS is about 160 characters and a reply is cut into messages of 1600.',
};

/** True for the platform names the prompt has rules for. */
export function isPromptPlatform(name: string): name is PromptPlatform {
  return (promptPlatforms as readonly string[]).includes(name);
}

/** The formatting rules for a platform (a general line for one the prompt does not know). */
export function platformRules(params: { platform: string }): string {
  const { platform } = params;
  return isPromptPlatform(platform) ? rules[platform] : 'Keep formatting simple: short paragraphs and lists, no tables.';
}
