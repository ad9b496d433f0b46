import { normalizePhone } from '../../util/phone.js';
import type { GatewayConfig } from '../../config/schema.js';
import { withTimeout } from '../../util/timeout.js';
import { UserFacingError } from '../../core/errors.js';
import type { Ask } from './ask.js';
import type { SetupFiles } from './files.js';
import type { PlatformField, PlatformSpec } from './platform-specs.js';
import type { SectionContext, SectionResult } from './section.js';

/** How long the platform's API gets to answer the check. */
export const PLATFORM_CHECK_TIMEOUT_MS = 10_000;

/** What `hermes setup <platform>` was given: values by flag name, and --owner. */
export interface PlatformFlags {
  /** The field flags given, by flag name without dashes ("token", "api-root"). */
  readonly values: Readonly<Record<string, string | undefined>>;
  /** --owner: the owner's id on the platform. */
  readonly owner?: string;
}

/** The effective config before this section's edits, or undefined when it does not load. */
function before(params: { files: SetupFiles; ctx: SectionContext }): GatewayConfig | undefined {
  try {
    return params.files.candidate({ env: params.ctx.env, schema: params.ctx.schema });
  } catch {
    return undefined;
  }
}

/** A field's current value: a secret resolved through .env, a plain one as config.yaml has it. */
function current(params: { spec: PlatformSpec; field: PlatformField; files: SetupFiles; config: GatewayConfig | undefined }): string | undefined {
  const { spec, field, files, config } = params;
  const block = config?.platforms[spec.name] as Readonly<Record<string, unknown>> | undefined;
  const value: unknown = field.envName !== undefined ? block?.[field.key] : files.get({ keyPath: ['platforms', spec.name, field.key] });
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' && value !== '' && (field.envName !== undefined || !value.includes('${')) ? value : undefined;
}

/** What is wrong with a value of `field`, or undefined (phone numbers: E.164 with the country code). */
function problemOf(params: { field: PlatformField; value: string }): string | undefined {
  const { field, value } = params;
  if (field.phone === true && normalizePhone({ value }) === undefined) return 'a number with its country code, e.g. +15551234567';
  return field.validate?.(value);
}

/** The owner id as allowed_users wants it, or undefined when it is not one. */
function ownerId(params: { spec: PlatformSpec; value: string }): string | undefined {
  const { owner } = params.spec;
  return owner.phone === true ? normalizePhone({ value: params.value }) : owner.normalize(params.value);
}

/** Asks for one field (masked for a secret); '' or an unchanged secret keeps the current value. */
async function askField(params: { ask: Ask; field: PlatformField; now: string | undefined; required: boolean }): Promise<string | undefined> {
  const { ask, field, now } = params;
  const check = (value: string): string | undefined => {
    if (value === '') return params.required && now === undefined ? `${field.label} is needed` : undefined;
    return problemOf({ field, value });
  };
  if (field.envName !== undefined) {
    for (;;) {
      const typed = await ask.secret({ message: now !== undefined ? `${field.label} (Enter keeps the current one)` : field.label });
      const problem = check(typed);
      if (problem === undefined) return typed === '' ? undefined : typed;
      ask.info({ text: problem });
    }
  }
  const typed = await ask.text({ message: field.label, ...(now !== undefined || field.fallback !== undefined ? { initial: now ?? field.fallback } : {}), validate: check });
  return typed === '' ? undefined : typed;
}

/** The value of a field given on the command line, checked. */
function flagValue(params: { spec: PlatformSpec; field: PlatformField; flags: PlatformFlags }): string | undefined {
  const { spec, field, flags } = params;
  const value = flags.values[field.flag];
  if (value === undefined) return undefined;
  const problem = problemOf({ field, value });
  if (problem !== undefined) throw new UserFacingError({ message: `--${field.flag}: ${problem}`, hint: `\`hermes setup ${spec.name} --help\` lists the options.`, exitCode: 64 });
  return value;
}

/** The owner's id: --owner, or asked; undefined when skipped. */
async function chooseOwner(params: { spec: PlatformSpec; flags: PlatformFlags; ask: Ask | undefined }): Promise<string | undefined> {
  const { spec, flags, ask } = params;
  const { owner } = spec;
  if (flags.owner !== undefined) {
    const id = ownerId({ spec, value: flags.owner });
    if (id === undefined) throw new UserFacingError({ message: `--owner ${JSON.stringify(flags.owner)} is not a ${spec.title} user id`, hint: owner.hint, exitCode: 64 });
    return id;
  }
  if (ask === undefined) return undefined;
  ask.info({ text: owner.hint });
  const typed = await ask.text({ message: owner.label, validate: (value) => (value.trim() === '' || ownerId({ spec, value }) !== undefined ? undefined : `not a ${spec.title} user id`) });
  return typed === '' ? undefined : ownerId({ spec, value: typed });
}

/** The YAML value of a field. */
function typed(params: { field: PlatformField; value: string }): unknown {
  if (params.field.type === 'int') return Number(params.value);
  if (params.field.type === 'bool') return params.value === 'true';
  return params.value;
}

/**
 * `hermes setup <platform>`: the credentials (each secret to .env, `${VAR}` in config.yaml), checked live with the
 * check `hermes doctor` runs (getMe, auth.test, /users/@me, IMAP and SMTP login, the Twilio account); then
 * enabled: true and the owner in allowed_users. A refused credential writes nothing.
 */
export async function platformSection(params: { spec: PlatformSpec; files: SetupFiles; ctx: SectionContext; flags: PlatformFlags }): Promise<SectionResult> {
  const { spec, files, ctx, flags } = params;
  const { ask } = ctx;
  const config = before({ files, ctx });
  if (ask !== undefined) ask.info({ text: spec.intro });
  const values: Record<string, unknown> = {};
  const wrote: string[] = [];
  for (const field of spec.fields) {
    const now = current({ spec, field, files, config });
    const required = typeof field.required === 'function' ? field.required(values) : field.required;
    let value = flagValue({ spec, field, flags });
    if (value === undefined && ask !== undefined && field.ask && (required || field.envName === undefined)) value = await askField({ ask, field, now, required });
    if (value === undefined) value = now === undefined && field.fallback !== undefined && required ? field.fallback : undefined;
    values[field.key] = value ?? now;
    if (value === undefined) {
      if (required && now === undefined) throw new UserFacingError({ message: `${spec.title}: ${field.label} is needed: pass --${field.flag}`, hint: spec.intro, exitCode: 64 });
      continue;
    }
    const keyPath = ['platforms', spec.name, field.key];
    if (field.envName !== undefined) {
      ctx.secrets.add(value);
      files.setEnv({ name: field.envName, value });
      files.set({ keyPath, value: `\${${field.envName}}` });
      wrote.push(`platforms.${spec.name}.${field.key} (\${${field.envName}}, the value in .env)`);
    } else {
      files.set({ keyPath, value: typed({ field, value }) });
      wrote.push(`platforms.${spec.name}.${field.key}`);
    }
  }
  const owner = await chooseOwner({ spec, flags, ask });
  files.set({ keyPath: ['platforms', spec.name, 'enabled'], value: true });
  wrote.push(`platforms.${spec.name}.enabled`);
  if (owner !== undefined) {
    files.addToList({ keyPath: ['platforms', spec.name, 'allowed_users'], item: owner });
    wrote.push(`platforms.${spec.name}.allowed_users (+ ${owner})`);
  }
  const candidate = files.candidate({ env: ctx.env, schema: ctx.schema });
  ctx.progress({ text: `Checking the ${spec.title} credentials...` });
  const check = await spec.check();
  const result = await withTimeout({ clock: ctx.clock, ms: PLATFORM_CHECK_TIMEOUT_MS, run: (signal) => check({ config: candidate.platforms[spec.name], signal, http: candidate.gateway.http }) });
  if (!result.ok) return { ok: false, detail: result.detail, ...(result.hint !== undefined ? { hint: result.hint } : {}) };
  const pairing = owner === undefined ? '; no owner id given: others can ask to pair, `hermes pairing approve` lets them in' : '';
  return { ok: true, detail: `${spec.title}: ${result.detail}${pairing}`, wrote };
}
