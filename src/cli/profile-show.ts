import { loadAppConfig } from '../app/config-schema.js';
import type { GatewayConfig } from '../config/schema.js';
import { chooseProfileName } from '../home/active-profile.js';
import { diskUsage, formatBytes } from '../home/disk-usage.js';
import { readGatewayState } from '../home/gateway-state.js';
import { DEFAULT_PROFILE_NAME, type Profile } from '../home/profile.js';
import { gatewayPid } from '../home/stop-gateway.js';
import { describeRunning } from '../home/uptime.js';
import { systemClock, type Clock } from '../core/clock.js';
import { println, type CliIO } from './output.js';
import { existingProfile, hermesHomeOf, profileDescription } from './profile-names.js';
import { describeServices } from './profile-service.js';
import { realSystemd, type SystemdDeps } from './systemctl.js';
import { errorMessage } from '../util/error-text.js';

/** "running (pid 12, up 4m 10s)" or "stopped". */
function gatewayLine(params: { profile: Profile; clock: Clock }): string {
  const pid = gatewayPid(params);
  return pid === null ? 'stopped' : describeRunning({ ...params, pid });
}

/** The lines that need a valid config. */
function configLines(params: { profile: Profile; config: GatewayConfig }): [string, string][] {
  const { config, profile } = params;
  const enabled = Object.entries(config.platforms).filter(([, block]) => block.enabled).map(([name]) => name);
  const { http } = config.gateway;
  const live = readGatewayState({ profile })?.http;
  const port = !http.enabled ? 'disabled' : live && gatewayPid({ profile }) !== null ? `${live.port} on ${live.host} (listening)` : `${http.port === 0 ? 'any free port' : http.port} on ${http.host}`;
  return [
    ['platforms', enabled.length === 0 ? 'none enabled' : enabled.join(', ')],
    ['model', `${config.model.name} at ${config.model.base_url}`],
    ['http port', port],
  ];
}

/** `hermes profile show NAME`: everything about one profile; a broken config is shown, not fatal. */
export async function profileShow(params: { io: CliIO; name: string; clock?: Clock; systemd?: SystemdDeps }): Promise<number> {
  const { io } = params;
  const hermesHome = hermesHomeOf({ io });
  const profile = existingProfile({ hermesHome, name: params.name });
  const clock = params.clock ?? systemClock;
  const active = (chooseProfileName({ option: undefined, env: io.env, hermesHome }) ?? DEFAULT_PROFILE_NAME) === profile.name;
  let configPart: [string, string][];
  try {
    configPart = configLines({ profile, config: (await loadAppConfig({ profile, env: io.env })).config });
  } catch (error) {
    configPart = [['config', `broken: ${errorMessage(error)} (see \`hermes -p ${profile.name} config validate\`)`]];
  }
  const description = profileDescription({ profile });
  const rows: [string, string][] = [
    ['profile', `${profile.name}${active ? ' (active: commands without -p use it)' : ''}`],
    ['path', profile.dir],
    ...(description === '' ? [] : [['description', description] as [string, string]]),
    ['gateway', gatewayLine({ profile, clock })],
    ...configPart,
    ['service', describeServices({ profileName: profile.name, env: io.env, deps: params.systemd ?? realSystemd })],
    ['state.db', formatBytes({ bytes: ['', '-wal', '-shm'].reduce((sum, suffix) => sum + diskUsage({ path: profile.dbPath + suffix }), 0) })],
    ['logs', formatBytes({ bytes: diskUsage({ path: profile.logsDir }) })],
  ];
  for (const [key, value] of rows) println({ stream: io.stdout, text: `${`${key}:`.padEnd(13)}${value}` });
  return 0;
}
