import { DEFAULT_PROFILE_NAME } from '../home/profile.js';

/** "5 minutes", "1 minute", "3 hours": how long until `ms` from now, rounded up, for people to read. */
function describeWait(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `${Math.round(minutes / 60)} hours`;
}

/** A time as "2024-05-01 14:05 UTC" (the sender and the host may be in different time zones). */
function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The command the owner runs to let the sender in. */
export function approveCommand(params: { platform: string; code: string; profileName: string }): string {
  const profile = params.profileName === DEFAULT_PROFILE_NAME ? '' : ` -p ${params.profileName}`;
  return `hermes${profile} pairing approve ${params.platform} ${params.code}`;
}

/**
 * The message an unknown sender gets: their pairing code, the command the owner runs to approve it,
 * and when it expires (relative to `now` when given, always also as a UTC time).
 */
export function pairingReply(params: { code: string; platform: string; profileName: string; expiresAt: number; now?: number }): string {
  const { code, expiresAt, now } = params;
  const when = now === undefined ? `at ${utcMinute(expiresAt)}` : `in ${describeWait(expiresAt - now)} (${utcMinute(expiresAt)})`;
  return [
    "Hi! This is a private assistant and it doesn't know you yet, so your messages are not passed on.",
    '',
    `To get access, send this pairing code to its owner: ${code}`,
    'They let you in by running:',
    approveCommand({ platform: params.platform, code, profileName: params.profileName }),
    '',
    `The code expires ${when}. After that, message me again for a new one.`,
  ].join('\n');
}
