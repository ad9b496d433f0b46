import { UserFacingError } from '../core/errors.js';
import { DEFAULT_PROFILE_NAME } from '../home/profile.js';
import { Pairing, normalizePairingCode } from '../gateway/intake/pairing/pairing.js';
import type { ApprovedSender, PairingRequest } from '../store/types.js';
import { systemClock, type Clock } from '../core/clock.js';
import { profileFrom, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { withProfileStore } from './profile-store.js';

/** What every `hermes pairing` command takes; `clock` is for tests. */
interface PairingCommandParams {
  readonly options: GlobalOptions;
  readonly io: CliIO;
  readonly clock?: Clock;
}

/** A hermes command line for this profile, e.g. "hermes -p work pairing list". */
function hermesCommand(params: { profileName: string; args: string }): string {
  const flag = params.profileName === DEFAULT_PROFILE_NAME ? '' : ` -p ${params.profileName}`;
  return `hermes${flag} ${params.args}`;
}

/** Opens the profile's store, runs `use` with a Pairing on it, and closes the store. */
function withPairing<T>(params: PairingCommandParams & { use: (pairing: Pairing, profileName: string) => T }): T {
  const profile = profileFrom(params);
  const clock = params.clock ?? systemClock;
  const run = hermesCommand({ profileName: profile.name, args: 'gateway run' });
  return withProfileStore({
    profile,
    clock,
    missing: 'pairing requests',
    hint: `Start the gateway (\`${run}\`) and have the person message the bot; they get a code to give you.`,
    use: (store) => params.use(new Pairing({ store, clock }), profile.name),
  });
}

/** Platform names are lower case config keys ("telegram"); accept "Telegram" too. */
function platformName(text: string): string {
  return text.trim().toLowerCase();
}

/** Makes text from a stranger safe to print on a terminal (no escape sequences or line breaks). */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- a stranger's control characters are replaced before printing
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** "Ada (id 42)" or "id 42". */
function who(params: { senderId: string; senderName: string | null }): string {
  const id = `id ${printable(params.senderId)}`;
  return params.senderName === null || params.senderName === '' ? id : `${printable(params.senderName)} (${id})`;
}

/** Prints one platform's section of `pairing list`. */
function printPlatform(params: { io: CliIO; platform: string; pending: PairingRequest[]; approved: ApprovedSender[]; now: number }): void {
  const { io, pending, approved, now } = params;
  const out = (text: string): void => println({ stream: io.stdout, text });
  out(`${printable(params.platform)}:`);
  out(pending.length === 0 ? '  pending:  none' : '  pending:');
  for (const r of pending) {
    const minutes = Math.max(1, Math.ceil((r.expiresAt - now) / 60_000));
    out(`    ${r.code}  ${who(r)}  expires in ${minutes} min`);
  }
  out(approved.length === 0 ? '  approved: none' : '  approved:');
  for (const a of approved) out(`    ${who(a)}  since ${new Date(a.approvedAt).toISOString()}`);
}

/** `hermes pairing list [PLATFORM]`: pending requests and approved senders, per platform. */
export function pairingList(params: PairingCommandParams & { platform?: string }): number {
  const platform = params.platform === undefined ? undefined : platformName(params.platform);
  return withPairing({
    ...params,
    use: (pairing) => {
      const now = (params.clock ?? systemClock).now();
      const { pending, approved } = pairing.list(platform === undefined ? {} : { platform });
      const platforms = [...new Set([...pending.map((r) => r.platform), ...approved.map((a) => a.platform)])].sort();
      if (platforms.length === 0) {
        const where = platform === undefined ? '' : ` on ${platform}`;
        println({ stream: params.io.stdout, text: `no pending pairing requests and no approved senders${where}` });
      }
      for (const p of platforms) {
        printPlatform({
          io: params.io,
          platform: p,
          pending: pending.filter((r) => r.platform === p),
          approved: approved.filter((a) => a.platform === p),
          now,
        });
      }
      return 0;
    },
  });
}

/** `hermes pairing approve PLATFORM CODE`: lets in the sender who got CODE. */
export function pairingApprove(params: PairingCommandParams & { platform: string; code: string }): number {
  const platform = platformName(params.platform);
  const code = normalizePairingCode({ code: params.code });
  return withPairing({
    ...params,
    use: (pairing, profileName) => {
      const result = pairing.approve({ platform, code });
      const list = hermesCommand({ profileName, args: 'pairing list' });
      if (!result.ok && result.reason === 'expired') {
        throw new UserFacingError({
          message: `pairing code ${code} on ${platform} has expired`,
          hint: 'Ask the person to message the bot again: they get a new code to give you.',
        });
      }
      if (!result.ok) {
        throw new UserFacingError({
          message: `no pending pairing request on ${platform} has the code ${code}`,
          hint: `Check the platform and the code (case does not matter); \`${list}\` shows pending requests. A long-expired code is forgotten, and so is the oldest when very many people asked for codes: ask them to message the bot again.`,
        });
      }
      println({ stream: params.io.stdout, text: `approved ${who(result)} on ${platform}: their messages now reach the agent` });
      return 0;
    },
  });
}

/** `hermes pairing revoke PLATFORM SENDER_ID`: takes an approved sender's access away. */
export function pairingRevoke(params: PairingCommandParams & { platform: string; senderId: string }): number {
  const platform = platformName(params.platform);
  const senderId = params.senderId.trim();
  return withPairing({
    ...params,
    use: (pairing, profileName) => {
      if (!pairing.revoke({ platform, senderId })) {
        const list = hermesCommand({ profileName, args: 'pairing list' });
        throw new UserFacingError({
          message: `sender ${printable(senderId)} is not an approved sender on ${platform}`,
          hint: `\`${list}\` shows approved senders with their ids. Senders allowed in config.yaml are changed there, not here.`,
        });
      }
      println({ stream: params.io.stdout, text: `revoked ${printable(senderId)} on ${platform}: their messages no longer reach the agent` });
      return 0;
    },
  });
}
