import path from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { GLIBC_TUNABLES, NODE_FLAGS } from './node-flags.js';

/** Who a system unit runs as (`User=`): the owner of HERMES_HOME, never root by default. */
export interface SystemUnitUser {
  readonly user: string;
}

/**
 * The systemd template unit, one instance per profile (`hermes-gateway@work.service`): restarts on failure but
 * not on a config error (exit 78), gives the drain time to finish, logs to the journal, SIGHUP reloads the
 * config. Without `system` it is a user unit; with it a system unit running as `system.user`, sandboxed so
 * only HERMES_HOME is writable.
 */
export function renderUnit(params: { nodePath: string; hermesHome: string; drainTimeoutMs: number; cliPath?: string; system?: SystemUnitUser }): string {
  const cli = params.cliPath ?? path.join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
  const stopSeconds = Math.ceil(params.drainTimeoutMs / 1000) + 30;
  const { system } = params;
  return [
    `# hermes-gateway: one gateway per profile (${system ? 'system' : 'user'} unit). Written by \`hermes gateway install${system ? ' --system' : ''}\`.`,
    '[Unit]',
    'Description=hermes-gateway (profile %i)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    ...(system ? [`# Runs as the owner of HERMES_HOME; its default group is used. Change User= to run as another account.`, `User=${system.user}`] : []),
    `Environment=${unitWord({ text: `HERMES_HOME=${params.hermesHome}` })}`,
    `Environment=${unitWord({ text: `GLIBC_TUNABLES=${GLIBC_TUNABLES}` })}`,
    `ExecStart=${[params.nodePath, ...NODE_FLAGS, cli].map((text) => unitWord({ text, exec: true })).join(' ')} -p %i gateway run`,
    '# `systemctl reload` re-reads config.yaml and .env without a restart.',
    'ExecReload=/bin/kill -HUP $MAINPID',
    'Restart=on-failure',
    'RestartSec=5',
    `# 78 = the config is invalid: restarting cannot help; fix it and \`systemctl${system ? '' : ' --user'} start\` again.`,
    'RestartPreventExitStatus=78',
    '# SIGTERM drains running turns (gateway.drain_timeout); give it that long and then some.',
    `TimeoutStopSec=${stopSeconds}`,
    'KillMode=mixed',
    'StandardOutput=journal',
    'StandardError=journal',
    'NoNewPrivileges=yes',
    ...(system ? systemHardening({ hermesHome: params.hermesHome }) : []),
    '',
    '[Install]',
    `WantedBy=${system ? 'multi-user.target' : 'default.target'}`,
    '',
  ].join('\n');
}

/**
 * One word of a unit setting as systemd reads it back: "%" doubled (specifiers), "$" doubled in command lines
 * (`exec`: variable expansion), and double-quoted with "\\" and '"' escaped when it holds spaces, quotes or
 * backslashes, so a HERMES_HOME like "/home/me/My Files" stays one word.
 */
export function unitWord(params: { text: string; exec?: boolean }): string {
  const specifiers = params.text.replace(/%/g, '%%');
  const escaped = params.exec === true ? specifiers.replace(/\$/g, '$$$$') : specifiers;
  if (!/[\s"'\\]/.test(escaped)) return escaped;
  return `"${escaped.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Sandboxing for the system unit: read-only OS and homes, private /tmp, only HERMES_HOME writable. */
function systemHardening(params: { hermesHome: string }): string[] {
  return [
    '# Sandbox: the OS and home folders are read-only, only HERMES_HOME is writable. A tools.workspace outside',
    '# HERMES_HOME needs its own line: `systemctl edit hermes-gateway@NAME` and add ReadWritePaths=/that/folder.',
    'ProtectSystem=strict',
    'ProtectHome=read-only',
    `ReadWritePaths=${unitWord({ text: params.hermesHome })}`,
    'PrivateTmp=yes',
    'PrivateDevices=yes',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectControlGroups=yes',
    'RestrictSUIDSGID=yes',
    'LockPersonality=yes',
    'RestrictNamespaces=yes',
  ];
}
