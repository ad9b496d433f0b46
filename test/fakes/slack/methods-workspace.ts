import { optionalString, requireChannel, requireString, SlackApiError, type MethodHandler } from './method-kit.js';

/** auth.test: who the bot token belongs to. */
export const authTest: MethodHandler = ({ state }) => {
  const { identity } = state;
  return {
    url: `${state.baseUrl}/`,
    team: 'Fake Team',
    user: 'hermes',
    team_id: identity.teamId,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    is_enterprise_install: false,
  };
};

/** conversations.info: channel → a channel object shaped by its kind (im, channel, group). */
export const conversationsInfo: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const kind = state.channelType({ channel });
  const base = { id: channel, created: Math.floor(state.clock.now() / 1000), is_archived: false, is_org_shared: false };
  if (kind === 'im') return { channel: { ...base, is_im: true, is_channel: false, is_group: false, is_private: true, user: 'U0USER' } };
  const isGroup = kind === 'group';
  return {
    channel: {
      ...base,
      name: channel.toLowerCase(),
      is_im: false,
      is_channel: !isGroup,
      is_group: isGroup,
      is_private: isGroup,
      is_member: true,
      is_mpim: false,
    },
  };
};

/** users.info: user → a user object (the bot itself, or any U/W id). */
export const usersInfo: MethodHandler = ({ state, params }) => {
  const id = requireString({ from: params, key: 'user', error: 'user_not_found' });
  if (!/^[UW][A-Z0-9]+$/.test(id)) throw new SlackApiError({ code: 'user_not_found' });
  const isBot = id === state.identity.botUserId;
  const name = isBot ? 'hermes' : id.toLowerCase();
  return {
    user: {
      id,
      team_id: state.identity.teamId,
      name,
      real_name: isBot ? 'Hermes' : `User ${id}`,
      deleted: false,
      is_bot: isBot,
      tz: 'Europe/Berlin',
      tz_offset: 3600,
      profile: { display_name: name, real_name: isBot ? 'Hermes' : `User ${id}`, ...(isBot ? { bot_id: state.identity.botId } : {}) },
    },
  };
};

/** assistant.threads.setStatus: channel_id, thread_ts, status ('' clears); recorded per thread. */
export const setThreadStatus: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params, key: 'channel_id' });
  const threadTs = requireString({ from: params, key: 'thread_ts' });
  const status = optionalString({ from: params, key: 'status' });
  if (status === undefined) throw new SlackApiError({ code: 'invalid_arguments' });
  const key = `${channel}:${threadTs}`;
  state.statuses.set(key, [...(state.statuses.get(key) ?? []), status]);
  state.changed();
  return {};
};
