import { DEFAULT_PROFILE_NAME } from '../../../home/profile.js';
import { maskPhonesInText } from '../../../log/phone-mask.js';

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

/** Who asked, as the owner's notice shows them: what a stranger chose as their name, made one safe line. */
export interface PairingAsker {
  /** The platform's id of the sender (a phone number on SMS, an address on email). */
  readonly senderId: string;
  /** Display name the platform gave (the stranger chose it). */
  readonly name?: string | null;
  /** Unique handle (Telegram @username), without '@'. */
  readonly username?: string | null;
}

/** Text from a stranger made fit for one line of a notice: no control characters or line breaks, at most 64 characters. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- a stranger's control characters become spaces
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > 64 ? `${flat.slice(0, 63)}…` : flat;
}

/** "Ada (@ada, id 42)" or "id +1555***4567": phone numbers masked as the logs mask them. */
function describeAsker(params: { asker: PairingAsker }): string {
  const { asker } = params;
  const id = `id ${oneLine(asker.senderId)}`;
  const handle = asker.username ? `@${oneLine(asker.username)}` : undefined;
  const name = asker.name ? oneLine(asker.name) : '';
  const text = name !== '' ? `"${name}" (${[handle, id].filter(Boolean).join(', ')})` : handle !== undefined ? `${handle} (${id})` : id;
  return maskPhonesInText({ text });
}

/**
 * The notice the owner gets in their chat when a stranger asks for access: who (as the platform names them,
 * phone numbers masked), where, the code, when it expires and the exact command that lets them in.
 * `last` adds that further requests within the hour come as one summary (the notices are capped).
 */
export function ownerPairingNotice(params: {
  asker: PairingAsker;
  platform: string;
  code: string;
  profileName: string;
  expiresAt: number;
  last?: { readonly until: number };
}): string {
  const { code, platform } = params;
  return [
    `Someone new asked to talk to the bot on ${platform}: ${describeAsker({ asker: params.asker })}.`,
    `Their pairing code is ${code} (it expires at ${utcMinute(params.expiresAt)}). To let them in, run:`,
    approveCommand({ platform, code, profileName: params.profileName }),
    'To refuse, do nothing: the code expires.',
    ...(params.last ? ['', `Further requests until ${utcMinute(params.last.until)} come in one summary, not one by one.`] : []),
  ].join('\n');
}

/** The one message that sums up the requests the owner was not told of one by one (per platform, counted). */
export function ownerPairingSummary(params: { counts: ReadonlyMap<string, number>; since: number; profileName: string }): string {
  const total = [...params.counts.values()].reduce((a, b) => a + b, 0);
  const where = [...params.counts].map(([platform, n]) => `${platform} ${n}`).join(', ');
  const list = params.profileName === DEFAULT_PROFILE_NAME ? 'hermes pairing list' : `hermes -p ${params.profileName} pairing list`;
  return [
    `${total === 1 ? '1 more person' : `${total} more people`} asked for a pairing code since ${utcMinute(params.since)} (${where}).`,
    `See who and their codes with: ${list}`,
  ].join('\n');
}

/** The one note per window telling the owner that strangers on `platform` get no code replies until `until`. */
export function strangerRepliesPausedNotice(params: { platform: string; max: number; until: number; profileName: string }): string {
  const list = params.profileName === DEFAULT_PROFILE_NAME ? 'hermes pairing list' : `hermes -p ${params.profileName} pairing list`;
  return [
    `More than ${params.max} strangers asked the bot on ${params.platform} for a pairing code this hour, so until ${utcMinute(params.until)} new ones get no reply (on SMS each reply is a paid text).`,
    `Their codes are still made: to see them and let someone in, run: ${list}`,
  ].join('\n');
}
