import { z } from 'zod';

/** A Telegram user, as far as the adapter reads one. */
const userSchema = z.looseObject({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});

/** A message entity: mentions, commands and text mentions decide whether the bot was spoken to. */
const entitySchema = z.looseObject({
  type: z.string(),
  offset: z.number(),
  length: z.number(),
  user: z.looseObject({ id: z.number().int() }).optional(),
});

/** The fields of an attached file the adapter reads. */
const fileSchema = z.looseObject({
  file_id: z.string().min(1),
  file_unique_id: z.string().min(1),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
  file_size: z.number().nonnegative().optional(),
});

/** A message (or edited message): exactly the fields inbound.ts reads, other fields kept as they are. */
export const telegramMessageSchema = z.looseObject({
  message_id: z.number().int(),
  chat: z.looseObject({ id: z.number().int(), type: z.string() }),
  from: userSchema.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  /** Set on each part of an album: the parts arrive as separate messages sharing this id. */
  media_group_id: z.string().optional(),
  entities: z.array(entitySchema).optional(),
  caption_entities: z.array(entitySchema).optional(),
  reply_to_message: z.looseObject({ message_id: z.number().int(), from: z.looseObject({ id: z.number().int() }).optional() }).optional(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  edit_date: z.number().int().optional(),
  photo: z.array(fileSchema).optional(),
  document: fileSchema.optional(),
  voice: fileSchema.optional(),
  audio: fileSchema.optional(),
  video: fileSchema.optional(),
});

/**
 * A button press: who pressed, and the message that carried the button (absent for inline-mode messages; an
 * inaccessible one, older than 48 hours, has only chat, message_id and date 0). `data` is the button's callback_data.
 */
export const callbackQuerySchema = z.looseObject({
  id: z.string().min(1),
  from: userSchema,
  message: z.looseObject({
    message_id: z.number().int(),
    chat: z.looseObject({ id: z.number().int(), type: z.string() }),
    from: z.looseObject({ id: z.number().int() }).optional(),
    message_thread_id: z.number().int().optional(),
    is_topic_message: z.boolean().optional(),
  }).optional(),
  data: z.string().optional(),
});

/** A Telegram update as the adapter reads it; updates without a message (other kinds) pass through unread. */
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int(),
  message: telegramMessageSchema.optional(),
  edited_message: telegramMessageSchema.optional(),
  callback_query: callbackQuerySchema.optional(),
});

/** A validated button press. */
export type TelegramCallbackQuery = z.infer<typeof callbackQuerySchema>;

/** A validated update. */
export type TelegramUpdate = z.infer<typeof telegramUpdateSchema>;

/** A validated message. */
export type TelegramMessage = z.infer<typeof telegramMessageSchema>;

/** What a body posted to the webhook (or an update from getUpdates) is. */
export type UpdateCheck =
  | { readonly kind: 'update'; readonly update: TelegramUpdate }
  /** Not an update at all (no numeric update_id). */
  | { readonly kind: 'not_update' }
  /** An update whose message the adapter cannot read: `issue` says where (a path and what was expected). */
  | { readonly kind: 'malformed'; readonly updateId: number; readonly issue: string };

/** Checks a body against the update schema; never throws. */
export function checkUpdate(params: { body: unknown }): UpdateCheck {
  const parsed = telegramUpdateSchema.safeParse(params.body);
  if (parsed.success) return { kind: 'update', update: parsed.data };
  const body = params.body;
  const updateId = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { update_id?: unknown }).update_id : undefined;
  if (typeof updateId !== 'number' || !Number.isInteger(updateId)) return { kind: 'not_update' };
  const first = parsed.error.issues[0];
  return { kind: 'malformed', updateId, issue: first ? `${first.path.join('.')}: ${first.message}` : 'unknown problem' };
}
