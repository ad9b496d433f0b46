import path from 'node:path';
import { packageRoot } from '../util/package-root.js';

/**
 * The systemd user template unit, one instance per profile (`hermes-gateway@work.service`): restarts on
 * failure but not on a config error (exit 78), gives the drain time to finish, logs to the journal.
 */
export function renderUnit(params: { nodePath: string; hermesHome: string; drainTimeoutMs: number }): string {
  const cli = path.join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
  const stopSeconds = Math.ceil(params.drainTimeoutMs / 1000) + 30;
  return [
    '# hermes-gateway: one gateway per profile. Written by `hermes gateway install`.',
    '[Unit]',
    'Description=hermes-gateway (profile %i)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `Environment=HERMES_HOME=${params.hermesHome}`,
    `ExecStart=${params.nodePath} ${cli} -p %i gateway run`,
    'Restart=on-failure',
    'RestartSec=5',
    '# 78 = the config is invalid: restarting cannot help; fix it and `systemctl --user start` again.',
    'RestartPreventExitStatus=78',
    '# SIGTERM drains running turns (gateway.drain_timeout); give it that long and then some.',
    `TimeoutStopSec=${stopSeconds}`,
    'KillMode=mixed',
    'StandardOutput=journal',
    'StandardError=journal',
    'NoNewPrivileges=yes',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
