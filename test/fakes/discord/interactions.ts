import { randomBytes } from 'node:crypto';
import { checkComponents } from './components.js';
import { memberJson, userJson } from './payloads.js';
import { asObject } from './rest-messages.js';
import { DiscordApiError, type RestRequest, type Route } from './router.js';
import type { DiscordState } from './state.js';
import type { Json, UserSpec } from './types.js';

/** Discord's deadline for the first answer to an interaction (after it, the token is unknown). */
export const INTERACTION_DEADLINE_MS = 3_000;

/** An interaction callback's types that the fake accepts: 4 CHANNEL_MESSAGE_WITH_SOURCE, 5 DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE. */
const REPLY_TYPES: ReadonlySet<number> = new Set([4, 5]);

/** A component interaction (a button press) may also answer 6 DEFERRED_UPDATE_MESSAGE or 7 UPDATE_MESSAGE. */
const COMPONENT_REPLY_TYPES: ReadonlySet<number> = new Set([4, 5, 6, 7]);

/** One interaction the fake dispatched, as the test inspects it. */
export interface InteractionRecord {
  /** Interaction id. */
  id: string;
  /** The interaction token (callback and webhook routes). */
  token: string;
  /** Command name. */
  name: string;
  /** Channel it was used in. */
  channelId: string;
  /** Clock time it was dispatched. */
  createdAt: number;
  /** The first answer (callback type and data), once given. */
  callback?: { type: number; data: Json; at: number };
  /** Follow-up and edited-original message bodies, in order. */
  followups: Json[];
  /** For a button press: the pressed button and the message that carries it. */
  component?: { customId: string; messageId: string };
}

/** What a user running a slash command needs. */
export interface SlashCommandOptions {
  /** Guild channel, thread or DM channel. */
  channelId: string;
  /** Who runs it. */
  user: UserSpec;
  /** Command name without '/'. */
  name: string;
  /** Role ids of the member (guild channels only). */
  roles?: string[];
  /** The command's string option, by name (a command that takes text: /model, /approve …). */
  values?: Record<string, string>;
}

/**
 * A new interaction's id and token, and its INTERACTION_CREATE payload of `type` with `data` (given the channel's
 * guild, if any) and `message`: the channel, the app's permissions, the user as guild member (with `roles`) or DM user.
 */
export function interactionPayload(params: {
  state: DiscordState;
  channelId: string;
  user: UserSpec;
  roles?: string[];
  type: number;
  data: (guildId: string | undefined) => Json;
  message?: Json;
}): { id: string; token: string; payload: Json } {
  const { state, channelId, user } = params;
  const channel = state.channels.get(channelId);
  state.rememberUser({ user });
  const id = state.nextId();
  const token = `aW50ZXJhY3Rpb24.${randomBytes(24).toString('base64url')}`;
  const guildId = state.guildOf({ channelId });
  const payload: Json = {
    id, application_id: state.applicationId, type: params.type, token, version: 1,
    data: params.data(guildId),
    ...(params.message ? { message: params.message } : {}),
    channel: { ...channel }, channel_id: channelId,
    app_permissions: '2248473465835073', locale: 'en-US', entitlements: [],
    authorizing_integration_owners: { '0': guildId ?? user.id }, context: guildId ? 0 : 1,
    attachment_size_limit: 10 * 1024 * 1024,
  };
  if (guildId) {
    payload['guild_id'] = guildId;
    payload['guild_locale'] = 'en-US';
    payload['member'] = { ...memberJson({ user, joinedAt: state.isoNow() }), roles: params.roles ?? [], permissions: '2248473465835073' };
  } else {
    payload['user'] = userJson({ user });
  }
  return { id, token, payload };
}

/** Builds, stores and returns an APPLICATION_COMMAND interaction payload for INTERACTION_CREATE. */
export function slashCommandInteraction(params: { state: DiscordState; options: SlashCommandOptions }): Json {
  const { state, options } = params;
  const channel = state.channels.get(options.channelId);
  if (!channel) throw new Error(`FakeDiscord: unknown channel ${options.channelId}; configure it in guilds or call openDm() first`);
  const command = state.commands.find((entry) => entry['name'] === options.name);
  if (!command) throw new Error(`FakeDiscord: the application has no command named ${options.name}; Discord would not show it`);
  const declared = ((command['options'] as { name: string }[] | undefined) ?? []).map((option) => option.name);
  for (const name of Object.keys(options.values ?? {})) {
    if (!declared.includes(name)) throw new Error(`FakeDiscord: /${options.name} has no option ${name}; Discord would not send it`);
  }
  const { id, token, payload } = interactionPayload({
    state,
    channelId: options.channelId,
    user: options.user,
    ...(options.roles ? { roles: options.roles } : {}),
    type: 2,
    data: (guildId) => ({
      id: command['id'], name: options.name, type: 1, ...(guildId ? { guild_id: guildId } : {}),
      ...(options.values ? { options: Object.entries(options.values).map(([name, value]) => ({ name, type: 3, value })) } : {}),
    }),
  });
  state.interactions.set(id, { id, token, name: options.name, channelId: options.channelId, createdAt: state.clock.now(), followups: [] });
  return payload;
}

/** The interaction callback and webhook follow-up routes (no bot token: the interaction token authorizes them). */
export function interactionRoutes(params: { state: DiscordState }): Route[] {
  const { state } = params;
  return [
    {
      pattern: 'POST /interactions/:id/:token/callback',
      handle: (request) => {
        const record = known({ state, request, idParam: 'id' });
        if (record.callback) throw new DiscordApiError({ status: 400, code: 40060, message: 'Interaction has already been acknowledged.' });
        if (state.clock.now() - record.createdAt > INTERACTION_DEADLINE_MS) throw new DiscordApiError({ status: 404, code: 10062, message: 'Unknown interaction' });
        const body = asObject(request.body);
        const type = Number(body['type']);
        const allowed = record.component ? COMPONENT_REPLY_TYPES : REPLY_TYPES;
        if (!allowed.has(type)) throw new DiscordApiError({ status: 400, code: 50035, message: 'Invalid Form Body', errors: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${[...allowed].join(', ')}}.` }] } } });
        const data = asObject(body['data']);
        if (type === 7 && record.component) updateMessage({ state, messageId: record.component.messageId, data });
        record.callback = { type, data, at: state.clock.now() };
        return { status: 204 };
      },
    },
    {
      pattern: 'POST /webhooks/:app/:token',
      handle: (request) => followup({ state, request }),
    },
    {
      pattern: 'PATCH /webhooks/:app/:token/messages/:message',
      handle: (request) => followup({ state, request }),
    },
  ];
}

/** UPDATE_MESSAGE: the pressed message takes the callback's content and components. */
function updateMessage(params: { state: DiscordState; messageId: string; data: Json }): void {
  const stored = params.state.messages.get(params.messageId);
  if (!stored) return;
  if (typeof params.data['content'] === 'string') stored['content'] = params.data['content'];
  if (params.data['components'] !== undefined) stored['components'] = checkComponents({ components: params.data['components'] });
  stored['edited_timestamp'] = params.state.isoNow();
}

function followup(params: { state: DiscordState; request: RestRequest }): { status: number; body: Json } {
  const record = known({ state: params.state, request: params.request, idParam: undefined });
  if (!record.callback) throw new DiscordApiError({ status: 404, code: 10015, message: 'Unknown Webhook' });
  const body = asObject(params.request.body);
  record.followups.push(body);
  return {
    status: 200,
    body: { id: params.state.nextId(), type: 20, channel_id: record.channelId, content: body['content'] ?? '', flags: body['flags'] ?? 0, webhook_id: params.state.applicationId },
  };
}

function known(params: { state: DiscordState; request: RestRequest; idParam: string | undefined }): InteractionRecord {
  const token = params.request.params['token'] ?? '';
  const record = [...params.state.interactions.values()].find((entry) => entry.token === token);
  if (!record || (params.idParam !== undefined && record.id !== params.request.params[params.idParam])) {
    throw new DiscordApiError({ status: 404, code: 10062, message: 'Unknown interaction' });
  }
  const app = params.request.params['app'];
  if (app !== undefined && app !== params.state.applicationId) throw new DiscordApiError({ status: 404, code: 10015, message: 'Unknown Webhook' });
  return record;
}
