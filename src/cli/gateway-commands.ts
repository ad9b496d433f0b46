import type { Command } from 'commander';
import type { GlobalOptions } from './context.js';
import { gatewayInstall, gatewayUninstall } from './gateway-install.js';
import { gatewayReload } from './gateway-reload.js';
import { gatewayRun } from './gateway-run.js';
import { gatewayRestart, gatewayServiceStatus, gatewayStart, gatewayStop } from './gateway-service.js';
import type { CliIO } from './output.js';

/** Adds `hermes gateway run|reload|install|uninstall|start|stop|restart|status` under the `gateway` command. */
export function addGatewayCommands(params: { gateway: Command; globals: () => GlobalOptions; io: CliIO; setExit: (code: number) => void }): void {
  const { gateway, globals, io, setExit } = params;
  gateway
    .command('run')
    .description('run the gateway in the foreground (Ctrl-C drains and exits; SIGHUP reloads the config)')
    .action(async () => setExit(await gatewayRun({ options: globals(), io })));
  gateway
    .command('reload')
    .description('make the running gateway re-read config.yaml and .env (changed platforms restart, others keep running)')
    .action(async () => setExit(await gatewayReload({ options: globals(), io })));
  gateway
    .command('install')
    .description('install this profile as a systemd service (hermes-gateway@NAME) and start it')
    .option('--system', 'a system service (needs root) instead of a user service')
    .option('--print', 'only print the unit file')
    .action(async (opts: { system?: boolean; print?: boolean }) => setExit(await gatewayInstall({ options: globals(), io, system: opts.system === true, print: opts.print === true })));
  const service: readonly { name: string; description: string; action: typeof gatewayStart }[] = [
    { name: 'uninstall', description: "stop and disable this profile's systemd service and remove its unit", action: gatewayUninstall },
    { name: 'start', description: "start this profile's systemd service", action: gatewayStart },
    { name: 'stop', description: 'stop the gateway (the systemd service, or one running in the foreground)', action: gatewayStop },
    { name: 'restart', description: "restart this profile's systemd service", action: gatewayRestart },
    { name: 'status', description: "systemctl status of this profile's service, or whether a foreground gateway runs", action: gatewayServiceStatus },
  ];
  for (const { name, description, action } of service) {
    gateway
      .command(name)
      .description(description)
      .option('--system', 'the system service instead of the user service')
      .action(async (opts: { system?: boolean }) => setExit(await action({ options: globals(), io, system: opts.system === true })));
  }
}
