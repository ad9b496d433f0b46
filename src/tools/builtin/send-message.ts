import { z } from 'zod';
import type { MessageTarget, TurnOrigin } from '../capabilities.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['list', 'send']),
  target: z
    .string()
    .optional()
    .describe('send: a target from list, or home:platform.'),
  message: z.string().optional().describe('send: the text; a line MEDIA:/path/to/file attaches that file.'),
});

/** The turn's own chat as a target ("telegram:42"), to mark it in the list. */
function ownTarget(params: { origin: TurnOrigin | undefined }): string | undefined {
  const { origin } = params;
  if (origin === undefined) return undefined;
  return [origin.platform, origin.chatId, ...(origin.threadId === undefined ? [] : [origin.threadId])].join(':');
}

/** The list as the model reads it: one target a line, with its title. */
function listText(params: { targets: readonly MessageTarget[]; origin: TurnOrigin | undefined }): string {
  if (params.targets.length === 0) return 'No chat is known yet: a chat becomes a target once someone allowed writes to the bot from it (or /sethome is sent there).';
  const own = ownTarget(params);
  const lines = params.targets.map((t) => `- ${t.target} (${t.platform})${t.title === undefined ? '' : ` — ${t.title}`}${t.target === own ? ' [this chat]' : ''}`);
  return ['Targets you can send to (send with action "send" and one of these targets):', ...lines].join('\n');
}

/** `send_message`: Hermes Agent's tool (same name and arguments) over the chats the profile talks with. */
export const sendMessageTool = defineTool({
  name: 'send_message',
  toolsets: ['messaging'],
  description:
    'Send a message to another chat, or list the chats you can send to: list first unless the user gave a target. ' +
    'Not for this chat: your answer goes here.',
  input,
  parallel: 'never',
  childBlocked: true,
  codeCallable: false,
  // The target only: a message's body is never shown in the progress line.
  progress: { emoji: '✉', arg: 'target', style: 'colon' },
  handler: async (args, ctx) => {
    if (ctx.messaging === undefined || (ctx.depth ?? 0) > 0) throw new ToolError('send_message is not available here; nothing was sent. Put what should be said in your answer instead.');
    if (args.action === 'list') return listText({ targets: await ctx.messaging.list({ signal: ctx.signal }), origin: ctx.origin });
    if (args.target === undefined || args.target.trim() === '') throw new ToolError('send_message send needs a target (see action "list"); nothing was sent.');
    if (args.message === undefined || args.message.trim() === '') throw new ToolError('send_message send needs a message; nothing was sent.');
    return ctx.messaging.send({ target: args.target, message: args.message, signal: ctx.signal });
  },
});
