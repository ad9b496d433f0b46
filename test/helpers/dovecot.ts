import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';

/** Where Debian installs the Dovecot master binary. */
const dovecotBinary = '/usr/sbin/dovecot';
/** The uid/gid mail processes run as (nobody): Dovecot refuses to run mail processes as root. */
const mailUid = 65534;

/** The one mailbox user of a test Dovecot. */
export interface DovecotUser {
  readonly username: string;
  readonly password: string;
}

/** A real Dovecot IMAP server on a loopback port, with a throwaway config, for one test file. */
export interface Dovecot {
  readonly host: string;
  readonly port: number;
  readonly user: DovecotUser;
  /** Appends a raw RFC 822 message to a folder (created when missing); resolves with its UID. */
  append(params: { folder?: string; raw: string | Buffer; flags?: string[]; date?: Date }): Promise<number>;
  /** Deletes a folder and its mail (re-creating it later gives it a new UIDVALIDITY). */
  deleteFolder(params: { folder: string }): Promise<void>;
  /** The flags of the message with this Message-ID in a folder (undefined when it or the folder is not there). */
  flagsOf(params: { folder?: string; messageId: string }): Promise<Set<string> | undefined>;
  /** Stops the server and starts it again on the same port and mail store (clients are disconnected). */
  restart(): Promise<void>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

/**
 * Whether Dovecot tests can run here. When they cannot, `reason` says how to fix it; with
 * HERMES_REQUIRE_DOVECOT=1 (CI) a missing Dovecot is a failure instead of a skip.
 */
export function dovecotAvailability(): { readonly available: true } | { readonly available: false; readonly reason: string } {
  if (!existsSync(dovecotBinary)) {
    const reason = `Dovecot is not installed (${dovecotBinary} missing): apt-get install dovecot-imapd to run the email tests`;
    if (process.env['HERMES_REQUIRE_DOVECOT'] === '1') throw new Error(`${reason} (HERMES_REQUIRE_DOVECOT=1 requires them)`);
    return { available: false, reason };
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    const reason = 'the Dovecot tests start Dovecot with its own config, which needs root';
    if (process.env['HERMES_REQUIRE_DOVECOT'] === '1') throw new Error(`${reason} (HERMES_REQUIRE_DOVECOT=1 requires them)`);
    return { available: false, reason };
  }
  return { available: true };
}

/** A free loopback TCP port (the OS picks one; it is released again before use). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port from the OS');
  return address.port;
}

/** The Dovecot config: everything under `dir`, plain IMAP on 127.0.0.1:`port`, one passwd-file user. */
function dovecotConf(params: { dir: string; port: number }): string {
  const { dir, port } = params;
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = hermes-test-${port}
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:${dir}/mail/%u
first_valid_uid = ${mailUid}
last_valid_uid = ${mailUid}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailUid} home=${dir}/mail/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`;
}

/** Resolves once something answers an IMAP greeting on the port. */
async function waitForGreeting(params: { port: number; timeoutMs: number; log: () => string }): Promise<void> {
  const deadline = Date.now() + params.timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: params.port });
      socket.setTimeout(500);
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('* OK'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`Dovecot did not answer on 127.0.0.1:${params.port}; its log:\n${params.log()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts a Dovecot with one user on a free loopback port (see PEERS.md); `extraConfig` is appended to its config. */
export async function startDovecot(params: { user?: DovecotUser; extraConfig?: string } = {}): Promise<Dovecot> {
  const user = params.user ?? { username: 'bot', password: 'bot-imap-password' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-dovecot-'));
  // The mail processes run as nobody and must reach their maildir below the temp dir.
  chmodSync(dir, 0o755);
  for (const sub of ['run', 'state', 'mail']) mkdirSync(path.join(dir, sub));
  chownSync(path.join(dir, 'mail'), mailUid, mailUid);
  writeFileSync(path.join(dir, 'passwd'), `${user.username}:{PLAIN}${user.password}:${mailUid}:${mailUid}::${dir}/mail/${user.username}::\n`);
  const port = await freePort();
  const confPath = path.join(dir, 'dovecot.conf');
  writeFileSync(confPath, dovecotConf({ dir, port }) + (params.extraConfig ?? ''));
  const log = (): string => {
    try {
      return readFileSync(path.join(dir, 'dovecot.log'), 'utf8').slice(-4000);
    } catch {
      return '(no log)';
    }
  };
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    // Its own process group, so stopping it ends its login and mail processes (and their connections) at once.
    const proc = spawn(dovecotBinary, ['-F', '-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child = proc;
    const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => reject(new Error(`dovecot exited with ${code}: ${stderr}\n${log()}`))));
    await Promise.race([waitForGreeting({ port, timeoutMs: 10_000, log: () => `${stderr}\n${log()}` }), exited]);
    exited.catch(() => undefined);
  };
  const halt = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const signalGroup = (signal: NodeJS.Signals): void => {
      try {
        if (proc.pid !== undefined) process.kill(-proc.pid, signal);
      } catch {
        // Already gone.
      }
    };
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };
  const withClient = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, doSTARTTLS: false, auth: { user: user.username, pass: user.password }, logger: false });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  };

  try {
    await launch();
  } catch (error) {
    await halt();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    user,
    append: async ({ folder = 'INBOX', raw, flags = [], date }) =>
      withClient(async (client) => {
        if (folder !== 'INBOX' && !(await client.list()).some((box) => box.path === folder)) await client.mailboxCreate(folder);
        const result = await client.append(folder, raw, flags, date);
        if (result === false || result.uid === undefined) throw new Error(`APPEND to ${folder} gave no UID`);
        return result.uid;
      }),
    deleteFolder: async ({ folder }) =>
      withClient(async (client) => {
        await client.mailboxDelete(folder);
      }),
    flagsOf: async ({ folder = 'INBOX', messageId }) =>
      withClient(async (client) => {
        if (!(await client.list()).some((box) => box.path === folder)) return undefined;
        const lock = await client.getMailboxLock(folder);
        try {
          const uids = await client.search({ header: { 'message-id': messageId } }, { uid: true });
          const uid = Array.isArray(uids) ? uids[0] : undefined;
          if (uid === undefined) return undefined;
          const found = await client.fetchOne(String(uid), { flags: true }, { uid: true });
          return found === false ? undefined : (found.flags ?? new Set<string>());
        } finally {
          lock.release();
        }
      }),
    restart: async () => {
      await halt();
      await launch();
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
