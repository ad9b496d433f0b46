import type { Logger } from 'pino';
import { z } from 'zod';
import type { AdapterStartParams, ChatRef, ChoiceAnswer, Sender } from '../../src/core/adapter.js';
import { choicesBlockPrefix, withoutChoices } from './blocks.js';
import type { SlackOutbound } from './outbound.js';

/** A `block_actions` interactivity payload, as far as the adapter reads one. */
const blockActionsSchema = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string().min(1), username: z.string().optional(), name: z.string().optional() }),
  channel: z.looseObject({ id: z.string().min(1) }).optional(),
  container: z.looseObject({ message_ts: z.string().optional(), channel_id: z.string().optional(), thread_ts: z.string().optional() }).optional(),
  message: z.looseObject({ ts: z.string().min(1), text: z.string().optional(), thread_ts: z.string().optional(), blocks: z.array(z.unknown()).optional() }).optional(),
  actions: z.array(z.looseObject({ action_id: z.string(), block_id: z.string().optional(), type: z.string(), value: z.string().optional() })),
});

/** A press the adapter reads. */
export type SlackPress = z.infer<typeof blockActionsSchema>;

/** What an interactivity payload is to the adapter. */
export type PayloadCheck =
  | { readonly kind: 'press'; readonly press: SlackPress }
  /** Another kind of interaction (a view submission, a shortcut): acknowledged and skipped. */
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'malformed'; readonly issue: string };

/** Checks an interactivity payload (already JSON-parsed); never throws. */
export function checkPayload(params: { body: unknown }): PayloadCheck {
  const { body } = params;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { kind: 'malformed', issue: 'the payload is not a JSON object' };
  const type = (body as { type?: unknown }).type;
  if (typeof type !== 'string') return { kind: 'malformed', issue: 'type: expected a string' };
  if (type !== 'block_actions') return { kind: 'skip', reason: `interaction ${type}` };
  const parsed = blockActionsSchema.safeParse(body);
  if (parsed.success) return { kind: 'press', press: parsed.data };
  const first = parsed.error.issues[0];
  return { kind: 'malformed', issue: first ? `${first.path.join('.')}: ${first.message}` : 'unknown problem' };
}

/**
 * Handles one press (after it was acknowledged): a press of one of the gateway's buttons goes to `choose`, whoever
 * pressed (the gateway decides who may); the answer's notice is shown to the presser alone (chat.postEphemeral), and
 * a retired question's message is updated without its buttons. Other buttons are ignored. Never a turn; never throws.
 */
export async function handleSlackPress(params: { press: SlackPress; outbound: SlackOutbound; choose: AdapterStartParams['choose']; logger: Logger }): Promise<void> {
  const { press, logger } = params;
  const action = press.actions.find((a) => a.type === 'button' && a.block_id?.startsWith(choicesBlockPrefix) === true);
  const channel = press.channel?.id ?? press.container?.channel_id;
  const ts = press.message?.ts ?? press.container?.message_ts;
  if (action === undefined || channel === undefined || ts === undefined) {
    logger.debug({ actions: press.actions.length }, 'Slack block action that is not a press of the gateway\'s buttons skipped');
    return;
  }
  const threadTs = press.message?.thread_ts ?? press.container?.thread_ts;
  const chat: ChatRef = { id: channel, kind: channel.startsWith('D') ? 'dm' : 'channel', ...(threadTs !== undefined && threadTs !== ts ? { threadId: threadTs } : {}) };
  const name = press.user.name ?? press.user.username;
  const sender: Sender = { id: press.user.id, ...(name !== undefined ? { name } : {}), isBot: false };
  let answer: ChoiceAnswer;
  try {
    answer = await params.choose({ platform: 'slack', chat, sender, messageId: ts, choiceId: action.value ?? action.action_id });
  } catch (error) {
    logger.warn({ err: error }, 'a Slack button press could not be handled');
    return;
  }
  if (answer.notice !== undefined) {
    await params.outbound
      .ephemeral({ channel, user: press.user.id, text: answer.notice, ...(chat.threadId !== undefined ? { threadTs: chat.threadId } : {}) })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not show a Slack button press its notice'));
  }
  if (answer.retire === true) {
    const blocks = withoutChoices({ blocks: press.message?.blocks ?? [] });
    await params.outbound
      .replaceBlocks({ channel, ts, text: press.message?.text ?? '', blocks })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not remove the buttons of an answered Slack question'));
  }
}
