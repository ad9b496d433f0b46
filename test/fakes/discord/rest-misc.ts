import { threadJson, userJson } from './payloads.js';
import { asObject } from './rest-messages.js';
import { DiscordApiError, type RestRequest, type Route } from './router.js';
import type { DiscordState } from './state.js';
import type { Json } from './types.js';

/** What the non-message routes need besides the state. */
export interface MiscRouteDeps {
  /** Shared state. */
  state: DiscordState;
  /** The gateway URL for GET /gateway/bot. */
  gatewayUrl: () => string;
  /** Sends an event over the gateway. */
  emit: (params: { t: string; d: Json }) => void;
}

/** Gateway info, identity, application commands, channels, DMs and threads. */
export function miscRoutes(deps: MiscRouteDeps): Route[] {
  const { state } = deps;
  const me = (): Json => ({ ...userJson({ user: state.bot }), bot: true, verified: true, mfa_enabled: false, flags: 0 });
  const application = (): Json => ({
    id: state.applicationId, name: state.bot.username, icon: null, description: '', bot_public: false,
    bot_require_code_grant: false, verify_key: '0'.repeat(64), flags: 0, owner: me(), team: null, bot: me(),
  });
  return [
    {
      pattern: 'GET /gateway/bot',
      handle: () => ({
        status: 200,
        body: {
          url: deps.gatewayUrl(), shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
        },
      }),
    },
    { pattern: 'GET /gateway', handle: () => ({ status: 200, body: { url: deps.gatewayUrl() } }) },
    { pattern: 'GET /users/@me', handle: () => ({ status: 200, body: me() }) },
    {
      pattern: 'GET /users/:user',
      handle: (request) => {
        const user = state.users.get(request.params['user'] ?? '');
        if (!user) throw new DiscordApiError({ status: 404, code: 10013, message: 'Unknown User' });
        return { status: 200, body: userJson({ user }) };
      },
    },
    { pattern: 'GET /applications/@me', handle: () => ({ status: 200, body: application() }) },
    { pattern: 'GET /oauth2/applications/@me', handle: () => ({ status: 200, body: application() }) },
    { pattern: 'GET /applications/:app/commands', handle: (request) => ({ status: 200, body: commandsOf({ state, request }) }) },
    { pattern: 'PUT /applications/:app/commands', handle: (request) => overwriteCommands({ state, request }) },
    { pattern: 'GET /applications/:app/guilds/:guild/commands', handle: (request) => ({ status: 200, body: commandsOf({ state, request }) }) },
    { pattern: 'PUT /applications/:app/guilds/:guild/commands', handle: (request) => overwriteCommands({ state, request }) },
    {
      pattern: 'POST /users/@me/channels',
      handle: (request) => {
        const recipient = asObject(request.body)['recipient_id'];
        if (typeof recipient !== 'string') throw formError({ field: 'recipient_id', text: 'This field is required' });
        return { status: 200, body: state.dmChannel({ userId: recipient }) };
      },
    },
    { pattern: 'GET /channels/:channel', handle: (request) => ({ status: 200, body: channelOf({ state, id: request.params['channel'] ?? '' }) }) },
    {
      pattern: 'GET /channels/:channel/messages/:message',
      handle: (request) => {
        channelOf({ state, id: request.params['channel'] ?? '' });
        const message = state.messages.get(request.params['message'] ?? '');
        if (!message || message['channel_id'] !== request.params['channel']) {
          throw new DiscordApiError({ status: 404, code: 10008, message: 'Unknown Message' });
        }
        return { status: 200, body: message };
      },
    },
    { pattern: 'POST /channels/:channel/threads', handle: (request) => createThread({ deps, request, id: state.nextId() }) },
    {
      pattern: 'POST /channels/:channel/messages/:message/threads',
      handle: (request) => {
        const messageId = request.params['message'] ?? '';
        const message = state.messages.get(messageId);
        if (!message || message['channel_id'] !== request.params['channel']) {
          throw new DiscordApiError({ status: 404, code: 10008, message: 'Unknown Message' });
        }
        if (state.channels.has(messageId)) throw new DiscordApiError({ status: 400, code: 160004, message: 'A thread has already been created for this message' });
        const answer = createThread({ deps, request, id: messageId });
        message['thread'] = answer.body;
        return answer;
      },
    },
  ];
}

function commandsOf(params: { state: DiscordState; request: RestRequest }): Json[] {
  checkApplication(params);
  const guild = params.request.params['guild'];
  return params.state.commands.filter((command) => (command['guild_id'] ?? undefined) === guild);
}

function overwriteCommands(params: { state: DiscordState; request: RestRequest }): { status: number; body: Json[] } {
  checkApplication(params);
  const { state, request } = params;
  if (!Array.isArray(request.body)) throw formError({ field: '_root', text: 'Expected an array of commands' });
  const guild = request.params['guild'];
  const commands = request.body.map((entry) => {
    const command = asObject(entry);
    if (typeof command['name'] !== 'string' || !/^[-_\p{L}\p{N}]{1,32}$/u.test(command['name'])) {
      throw formError({ field: 'name', text: 'Command name is invalid' });
    }
    return {
      ...command, id: state.nextId(), application_id: state.applicationId, version: state.nextId(),
      type: command['type'] ?? 1, description: command['description'] ?? '', default_member_permissions: null,
      ...(guild ? { guild_id: guild } : {}),
    };
  });
  state.commands = [...state.commands.filter((command) => (command['guild_id'] ?? undefined) !== guild), ...commands];
  state.commandOverwrites += 1;
  return { status: 200, body: commands };
}

function checkApplication(params: { state: DiscordState; request: RestRequest }): void {
  if (params.request.params['app'] !== params.state.applicationId) {
    throw new DiscordApiError({ status: 403, code: 50001, message: 'Missing Access' });
  }
}

function createThread(params: { deps: MiscRouteDeps; request: RestRequest; id: string }): { status: number; body: Json } {
  const { state } = params.deps;
  const parent = channelOf({ state, id: params.request.params['channel'] ?? '' });
  if (parent['type'] !== 0 && parent['type'] !== 5) {
    throw new DiscordApiError({ status: 400, code: 50024, message: 'Cannot execute action on this channel type' });
  }
  const body = asObject(params.request.body);
  const name = typeof body['name'] === 'string' ? body['name'] : '';
  if (name.length < 1 || name.length > 100) throw formError({ field: 'name', text: 'Must be between 1 and 100 in length.' });
  const type = params.request.params['message'] ? 11 : Number(body['type'] ?? 12);
  const thread = threadJson({
    id: params.id, parent, name, type, ownerId: state.bot.id,
    autoArchive: Number(body['auto_archive_duration'] ?? 4320), createdAt: state.isoNow(),
  });
  state.channels.set(params.id, thread);
  params.deps.emit({ t: 'THREAD_CREATE', d: { ...thread, newly_created: true } });
  return { status: 201, body: thread };
}

function channelOf(params: { state: DiscordState; id: string }): Json {
  const channel = params.state.channels.get(params.id);
  if (!channel) throw new DiscordApiError({ status: 404, code: 10003, message: 'Unknown Channel' });
  return channel;
}

function formError(params: { field: string; text: string }): DiscordApiError {
  return new DiscordApiError({
    status: 400, code: 50035, message: 'Invalid Form Body',
    errors: { [params.field]: { _errors: [{ code: 'BASE_TYPE_BAD', message: params.text }] } },
  });
}
