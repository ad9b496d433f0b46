import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserFacingError } from '../gateway/errors.js';
import { loadProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { renderUnit } from './systemd-unit.js';

/** Runs `systemctl --user ARGS`; the error text when it fails. */
function systemctl(params: { args: readonly string[] }): string | null {
  const result = spawnSync('systemctl', ['--user', ...params.args], { encoding: 'utf8', timeout: 15_000 });
  if (result.error) return result.error.message;
  return result.status === 0 ? null : (result.stderr || result.stdout || `exit ${result.status}`).trim();
}

/**
 * `hermes gateway install [--print]`: writes the systemd user unit and enables this profile's instance. Without
 * a systemd user session (containers, CI) it says so and shows the unit (`--print` only shows it).
 */
export async function gatewayInstall(params: { options: GlobalOptions; io: CliIO; print: boolean }): Promise<number> {
  const { io } = params;
  const loaded = await loadProfile(params);
  const unit = renderUnit({ nodePath: process.execPath, hermesHome: loaded.profile.hermesHome, drainTimeoutMs: loaded.config.gateway.drain_timeout });
  const instance = `hermes-gateway@${loaded.profile.name}.service`;
  if (params.print) {
    io.stdout.write(unit);
    return 0;
  }
  const configHome = io.env['XDG_CONFIG_HOME'] ?? path.join(io.env['HOME'] ?? os.homedir(), '.config');
  const unitDir = path.join(configHome, 'systemd', 'user');
  const problem = systemctl({ args: ['show-environment'] });
  if (problem !== null) {
    io.stdout.write(unit);
    throw new UserFacingError({
      message: `no systemd user session here (${problem.split('\n')[0]}); the unit above was not installed`,
      hint: `Save it as ${path.join(unitDir, 'hermes-gateway@.service')} on a host with systemd, or run \`hermes -p ${loaded.profile.name} gateway run\` under your own supervisor.`,
      exitCode: 69,
    });
  }
  mkdirSync(unitDir, { recursive: true });
  writeFileSync(path.join(unitDir, 'hermes-gateway@.service'), unit);
  for (const args of [['daemon-reload'], ['enable', '--now', instance]]) {
    const failed = systemctl({ args });
    if (failed !== null) throw new UserFacingError({ message: `systemctl --user ${args.join(' ')} failed: ${failed}`, hint: 'See `journalctl --user -u hermes-gateway@*`.' });
  }
  println({ stream: io.stdout, text: `installed and started ${instance}` });
  println({ stream: io.stdout, text: 'to keep it running after you log out: loginctl enable-linger' });
  return 0;
}
