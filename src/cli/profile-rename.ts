import { renameSync } from 'node:fs';
import { UserFacingError } from '../core/errors.js';
import { readActiveProfile, writeActiveProfile } from '../home/active-profile.js';
import { DEFAULT_PROFILE_NAME } from '../home/profile.js';
import { gatewayPid } from '../home/stop-gateway.js';
import { println, type CliIO } from './output.js';
import { existingProfile, hermesHomeOf, newProfile } from './profile-names.js';
import { moveServices } from './profile-service.js';
import { realSystemd, type SystemdDeps } from './systemctl.js';

/**
 * `hermes profile rename OLD NEW`: moves the profile's directory. Refuses while OLD's gateway runs or when NEW
 * exists; the sticky default and an installed systemd instance follow the new name.
 */
export function profileRename(params: { io: CliIO; from: string; to: string; systemd?: SystemdDeps }): number {
  const { io } = params;
  const hermesHome = hermesHomeOf({ io });
  if (params.from === DEFAULT_PROFILE_NAME) {
    throw new UserFacingError({
      message: 'the default profile lives in HERMES_HOME itself and cannot be renamed',
      hint: `Make a named copy instead: \`hermes profile create ${params.to} --clone-from default\`.`,
      exitCode: 64,
    });
  }
  const from = existingProfile({ hermesHome, name: params.from });
  const to = newProfile({ hermesHome, name: params.to });
  const pid = gatewayPid({ profile: from });
  if (pid !== null) {
    throw new UserFacingError({
      message: `the gateway of profile "${from.name}" is running (pid ${pid}); a running gateway cannot be renamed`,
      hint: `Stop it first: \`hermes -p ${from.name} gateway stop\` (or \`kill ${pid}\`), then rename.`,
      exitCode: 75,
    });
  }
  renameSync(from.dir, to.dir);
  const out = (text: string): void => println({ stream: io.stdout, text });
  out(`renamed profile "${from.name}" to "${to.name}" (${to.dir})`);
  if (readActiveProfile({ hermesHome }) === from.name) {
    writeActiveProfile({ hermesHome, name: to.name });
    out(`commands without -p now use "${to.name}"`);
  }
  for (const line of moveServices({ from: from.name, to: to.name, env: io.env, deps: params.systemd ?? realSystemd })) out(line);
  out(`conversations continue in new sessions under "${to.name}"; the history stays searchable (\`hermes -p ${to.name} sessions list\`)`);
  return 0;
}
