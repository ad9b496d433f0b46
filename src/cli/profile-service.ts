import { existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { EnvSnapshot } from '../home/hermes-home.js';
import { enabledInstances, serviceTarget, systemctl, systemctlLine, systemdUnavailable, type ServiceTarget, type SystemdDeps } from './systemctl.js';
import { errorMessage } from '../util/error-text.js';

/** The managers (user, then system) in which this profile's instance is enabled (`systemctl enable` made its link). */
export function installedServices(params: { profileName: string; env: EnvSnapshot; deps: SystemdDeps }): ServiceTarget[] {
  return [false, true]
    .map((system) => serviceTarget({ ...params, system }))
    .filter((target) => enabledInstances({ target }).includes(target.instance));
}

/** "hermes-gateway@work.service (user)" for `profile show`, or "not installed". */
export function describeServices(params: { profileName: string; env: EnvSnapshot; deps: SystemdDeps }): string {
  const targets = installedServices(params);
  if (targets.length === 0) return 'not installed';
  return targets.map((t) => `${t.instance} installed (${t.system ? 'system' : 'user'} service, ${t.unitDir})`).join('; ');
}

/** The `hermes ... gateway install` line for a target. */
function installLine(params: { profileName: string; target: ServiceTarget }): string {
  return `${params.target.system ? 'sudo ' : ''}hermes -p ${params.profileName} gateway install${params.target.system ? ' --system' : ''}`;
}

/**
 * After `profile rename`: moves each enabled instance to the new name (disable old, enable new) when systemd
 * answers, else says how. Returns the lines to print.
 */
export function moveServices(params: { from: string; to: string; env: EnvSnapshot; deps: SystemdDeps }): string[] {
  return installedServices({ profileName: params.from, env: params.env, deps: params.deps }).map((target) => {
    const next = serviceTarget({ profileName: params.to, system: target.system, env: params.env, deps: params.deps }).instance;
    const manual = `the systemd unit ${target.instance} was installed; reinstall it for the new name: \`${installLine({ profileName: params.to, target })}\` (and \`${systemctlLine({ target, args: ['disable', target.instance] })}\`)`;
    const problem = systemdUnavailable({ target, deps: params.deps });
    if (problem !== null) return `${manual}; ${problem}`;
    for (const args of [['disable', target.instance], ['enable', next]]) {
      const result = systemctl({ target, deps: params.deps, args });
      if (!result.ok) return `${systemctlLine({ target, args })} failed (${result.output}); ${manual}`;
    }
    return `systemd: disabled ${target.instance}, enabled ${next} (start it with \`${systemctlLine({ target, args: ['start', next] })}\`)`;
  });
}

/**
 * For `profile delete`: disables and stops each enabled instance (`disable --now`), removes its links when
 * systemd does not answer, and the template unit once no other profile's instance uses it. Returns lines to print.
 */
export function removeServices(params: { profileName: string; env: EnvSnapshot; deps: SystemdDeps }): string[] {
  return installedServices(params).map((target) => {
    const problem = systemdUnavailable({ target, deps: params.deps });
    const notes: string[] = [];
    if (problem === null) {
      const result = systemctl({ target, deps: params.deps, args: ['disable', '--now', target.instance] });
      if (!result.ok) notes.push(`${systemctlLine({ target, args: ['disable', '--now', target.instance] })} failed: ${result.output}`);
    }
    try {
      for (const wants of enabledLinks({ target })) rmSync(wants, { force: true });
      if (enabledInstances({ target }).length === 0) rmSync(target.unitPath, { force: true });
    } catch (error) {
      notes.push(`cannot remove its unit files (${errorMessage(error)}); remove them with \`sudo hermes -p ${params.profileName} gateway uninstall --system\` before deleting`);
    }
    if (problem === null) systemctl({ target, deps: params.deps, args: ['daemon-reload'] });
    return notes.length === 0 ? `removed the systemd service ${target.instance}` : `removing the systemd service ${target.instance}: ${notes.join('; ')}`;
  });
}

/** The `*.wants/` links that still enable the target's instance. */
function enabledLinks(params: { target: ServiceTarget }): string[] {
  const { target } = params;
  return readdirSync(target.unitDir)
    .filter((entry) => entry.endsWith('.wants'))
    .map((wants) => path.join(target.unitDir, wants, target.instance))
    .filter((link) => existsSync(link) || isLink(link));
}

/** True for a symlink, also a dangling one. */
function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
