import type { PlatformName } from '../config/schema.js';
import type { CredentialCheck, PlatformBlock } from '../core/platform-descriptor.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';
import type { Clock } from '../core/clock.js';
import { clashLines } from './clashes.js';
import { configCheck } from './config.js';
import { contextLengthCheck } from './context-length.js';
import { envFileCheck, folderChecks } from './files.js';
import { gatewayRunningCheck, portCheck } from './gateway.js';
import { keyPoolLines } from './keys.js';
import { modelEndpointCheck } from './model.js';
import { credentialLines } from './platforms.js';
import { nodeVersionCheck, sqliteCheck } from './runtime.js';
import { checkpointsCheck, sandboxCheck } from './sandbox.js';
import { mcpLines } from './mcp.js';
import { line, type CheckLine } from '../core/check-line.js';
import { Redactor } from '../log/redact.js';
import type { ProbeResult } from '../tools/sandbox/probe.js';
import { speechCheck, webSearchCheck } from './senses.js';

/** What runDoctor needs. */
export interface DoctorParams {
  readonly profile: Profile;
  /** The inherited environment (the profile's .env is layered over it, never into process.env). */
  readonly env: EnvSnapshot;
  readonly clock: Clock;
  /** Credential checks by platform (the descriptors' in production: src/doctor/credential-checks.ts). */
  readonly checks: Partial<Record<PlatformName, CredentialCheck<PlatformBlock>>>;
  /** Called with each line as soon as it is known. */
  readonly report: (check: CheckLine) => void;
  /** Node's version (process.versions.node); for tests. */
  readonly nodeVersion?: string;
  /** Time limit for the model endpoint check. */
  readonly modelTimeoutMs?: number;
  /** Whether bwrap works (the cached probe when absent); for tests. */
  readonly probeSandbox?: () => ProbeResult;
}

/**
 * Runs every check of `hermes doctor` in order, reporting each line; the checks that need the config are skipped
 * (with a "!" line) when it does not load. Returns all lines.
 */
export async function runDoctor(params: DoctorParams): Promise<CheckLine[]> {
  const { profile, clock } = params;
  const lines: CheckLine[] = [];
  // Once the config loads, every line is scrubbed of its secrets: a check's error text may quote one.
  let redactor: Redactor | undefined;
  const add = (...checks: CheckLine[]): void => {
    for (const check of checks) {
      const scrubbed = redactor === undefined ? check : scrubLine({ check, redactor });
      lines.push(scrubbed);
      params.report(scrubbed);
    }
  };
  add(nodeVersionCheck({ version: params.nodeVersion ?? process.versions.node }), await sqliteCheck());
  add(...folderChecks({ profile }), envFileCheck({ profile }));
  const config = await configCheck({ profile, env: params.env });
  if (config.loaded !== undefined) redactor = new Redactor({ secrets: config.loaded.secrets });
  add(...config.lines);
  if (config.loaded === undefined) {
    add(line.warn('model, platforms, http port', 'not checked: they need a valid config (see above)'));
  } else {
    const loaded = config.loaded.config;
    const timeout = params.modelTimeoutMs ? { timeoutMs: params.modelTimeoutMs } : {};
    const endpoint = await modelEndpointCheck({ config: loaded, profile, clock, ...timeout });
    add(endpoint);
    add(await contextLengthCheck({ config: loaded, clock, ask: endpoint.status !== 'fail', ...timeout }));
    add(...keyPoolLines({ config: loaded, profile, clock }));
    add(...(await credentialLines({ config: loaded, clock, checks: params.checks })));
    add(...(await clashLines({ profile, config: loaded, env: params.env })));
    add(sandboxCheck({ config: loaded, profile, ...(params.probeSandbox ? { probe: params.probeSandbox } : {}) }));
    add(checkpointsCheck({ config: loaded }));
    add(...(await mcpLines({ config: loaded, profile, clock })));
    add(...speechCheck({ config: loaded }), ...(await webSearchCheck({ config: loaded, clock })));
  }
  add(gatewayRunningCheck({ profile, clock }));
  if (config.loaded !== undefined) add(await portCheck({ profile, config: config.loaded.config }));
  return lines;
}

/** A check line with the profile's secrets replaced by "***" in what it found and in its fix. */
function scrubLine(params: { check: CheckLine; redactor: Redactor }): CheckLine {
  const { check, redactor } = params;
  return { ...check, detail: redactor.scrub(check.detail), ...(check.fix === undefined ? {} : { fix: redactor.scrub(check.fix) }) };
}
