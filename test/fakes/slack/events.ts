import { createHmac, randomUUID } from 'node:crypto';
import type { SlackState } from './state.js';
import type { UserMessageOptions } from './types.js';

/** Builds the `message` event Slack sends for a user's message, or `app_mention` when it mentions the bot outside a DM. */
export function buildUserMessage(params: { state: SlackState; options: UserMessageOptions }): Record<string, unknown> {
  const { state, options } = params;
  const { teamId, botUserId } = state.identity;
  state.channels.set(options.channel, options.channelType);
  state.users.add(options.user);
  const ts = state.nextTs({ channel: options.channel });
  const mentions = options.text.includes(`<@${botUserId}>`);
  const files = options.files ?? [];
  const event: Record<string, unknown> = {
    type: mentions && options.channelType !== 'im' ? 'app_mention' : 'message',
    ...(files.length > 0 ? { subtype: 'file_share', files, upload: false, display_as_bot: false } : {}),
    user: options.user,
    text: options.text,
    ts,
    team: teamId,
    channel: options.channel,
    event_ts: ts,
    client_msg_id: randomUUID(),
    blocks: [{ type: 'rich_text', block_id: ts.replace('.', ''), elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: options.text }] }] }],
    ...(options.threadTs !== undefined ? { thread_ts: options.threadTs, parent_user_id: botUserId } : {}),
  };
  if (event['type'] === 'message') event['channel_type'] = options.channelType;
  state.changed();
  return event;
}

/** Wraps an event in the Events API `event_callback` payload Slack posts or sends over Socket Mode. */
export function eventCallback(params: { state: SlackState; event: Record<string, unknown>; eventId: string }): Record<string, unknown> {
  const { teamId, appId, botUserId } = params.state.identity;
  return {
    token: 'fake-verification-token',
    team_id: teamId,
    context_team_id: teamId,
    api_app_id: appId,
    event: params.event,
    type: 'event_callback',
    event_id: params.eventId,
    event_time: Math.floor(params.state.clock.now() / 1000),
    authorizations: [{ enterprise_id: null, team_id: teamId, user_id: botUserId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: `4-fake-${params.eventId}`,
  };
}

/** Headers and body for an HTTP Events API request signed like Slack (v0 HMAC-SHA256 over `v0:ts:body`). */
export function signedEventRequest(params: {
  body: string | Record<string, unknown>;
  secret: string;
  /** Seconds since the epoch (default now). */
  timestamp?: number;
  /** X-Slack-Retry-Num; X-Slack-Retry-Reason goes with it. */
  retryNum?: number;
  /** X-Slack-Retry-Reason (default 'http_timeout' when retryNum is set). */
  retryReason?: string;
}): { headers: Record<string, string>; body: string } {
  const body = typeof params.body === 'string' ? params.body : JSON.stringify(params.body);
  const timestamp = params.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', params.secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-slack-signature': signature,
    'x-slack-request-timestamp': String(timestamp),
  };
  if (params.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(params.retryNum);
    headers['x-slack-retry-reason'] = params.retryReason ?? 'http_timeout';
  }
  return { headers, body };
}
