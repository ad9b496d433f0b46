/** What a bwrap-confined command needs: the binary, the folders it must not see, and whether it has the network. */
export interface BwrapSettings {
  /** Absolute path of the bwrap binary (the one the probe ran). */
  readonly bwrap: string;
  /** Folders hidden behind an empty tmpfs (HERMES_HOME: every profile's .env, state.db, config.yaml, logs, memories). */
  readonly hide: readonly string[];
  /** True: the command shares the host's network; false: a new network namespace with only a loopback of its own. */
  readonly network: boolean;
}

/**
 * How the terminal tool's commands are confined: `bwrap` runs them under bubblewrap; `unavailable` means the config
 * asks for bwrap but it does not work here, so every terminal call fails with `reason`. No spec means unconfined.
 */
export type SandboxSpec = ({ readonly kind: 'bwrap' } & BwrapSettings) | { readonly kind: 'unavailable'; readonly reason: string };
