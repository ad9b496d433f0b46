import type { Command } from 'commander';
import type { GlobalOptions } from './context.js';
import type { CliIO } from './output.js';

/** Adds `hermes gateway run|reload|install|uninstall|start|stop|restart|status` under the `gateway` command. */
export function addGatewayCommands(params: { gateway: Command; globals: () => GlobalOptions; io: CliIO; setExit: (code: number) => void }): void {
  const { gateway, globals, io, setExit } = params;
  gateway
    .command('run')
    .description('run the gateway in the foreground (Ctrl-C drains and exits; SIGHUP reloads the config)')
    .action(async () => setExit(await (await import('./gateway-run.js')).gatewayRun({ options: globals(), io })));
  gateway
    .command('reload')
    .description('make the running gateway re-read config.yaml and .env (changed platforms restart, others keep running)')
    .action(async () => setExit(await (await import('./gateway-reload.js')).gatewayReload({ options: globals(), io })));
  gateway
    .command('install')
    .description('install this profile as a systemd service (hermes-gateway@NAME) and start it')
    .option('--system', 'a system service (needs root) instead of a user service')
    .option('--print', 'only print the unit file')
    .action(async (opts: { system?: boolean; print?: boolean }) => setExit(await (await import('./gateway-install.js')).gatewayInstall({ options: globals(), io, system: opts.system === true, print: opts.print === true })));
  type ServiceAction = (params: { options: GlobalOptions; io: CliIO; system: boolean }) => Promise<number>;
  const service: readonly { name: string; description: string; action: () => Promise<ServiceAction> }[] = [
    { name: 'uninstall', description: "stop and disable this profile's systemd service and remove its unit", action: async () => (await import('./gateway-install.js')).gatewayUninstall },
    { name: 'start', description: "start this profile's systemd service", action: async () => (await import('./gateway-service.js')).gatewayStart },
    { name: 'stop', description: 'stop the gateway (the systemd service, or one running in the foreground)', action: async () => (await import('./gateway-service.js')).gatewayStop },
    { name: 'restart', description: "restart this profile's systemd service", action: async () => (await import('./gateway-service.js')).gatewayRestart },
    { name: 'status', description: "systemctl status of this profile's service, or whether a foreground gateway runs", action: async () => (await import('./gateway-service.js')).gatewayServiceStatus },
  ];
  for (const { name, description, action } of service) {
    gateway
      .command(name)
      .description(description)
      .option('--system', 'the system service instead of the user service')
      .action(async (opts: { system?: boolean }) => setExit(await (await action())({ options: globals(), io, system: opts.system === true })));
  }
}
