import { UserFacingError } from '../../core/errors.js';
import { ensureProfileDirs, type Profile } from '../../home/index.js';
import { Redactor } from '../../log/redact.js';
import { systemClock } from '../../core/clock.js';
import { profileFrom, type GlobalOptions } from '../context.js';
import { println, type CliIO } from '../output.js';
import { clackAsk, type Ask } from './ask.js';
import { SetupFiles } from './files.js';
import { modelSection, type ModelFlags } from './model-section.js';
import { platformSection, type PlatformFlags } from './platform-section.js';
import { platformSpec, platformSpecs, type PlatformSpec } from './platform-specs.js';
import { appConfigSchema, type AppParsedConfig } from '../../app/config-schema.js';
import type { ConfigSchema } from '../../config/schema.js';
import type { SectionContext, SectionResult } from './section.js';
import type { PlatformName } from '../../config/schema.js';

/** The sections `hermes setup <section>` runs: `model`, or a platform's name (adapters/index.ts lists them). */
export type SetupSection = string;

/** Exit code when a live check refuses what was entered (nothing is written): the configuration would not work. */
const CHECK_FAILED_EXIT = 78;

/** Whether setup can ask questions: both ends are a terminal and --yes was not given. */
export function canAsk(params: { io: CliIO; yes: boolean }): boolean {
  return !params.yes && params.io.isTTY && 'isTTY' in params.io.stdin && params.io.stdin.isTTY === true;
}

/** Runs one section against fresh copies of the files, writing them only when it succeeds; its result line. */
async function runOne(params: { profile: Profile; section: SetupSection; ctx: SectionContext; model: ModelFlags; platform: PlatformFlags }): Promise<Extract<SectionResult, { ok: true }>> {
  const { profile, section, ctx } = params;
  const files = SetupFiles.open({ profile });
  const result = section === 'model' ? await modelSection({ files, ctx, flags: params.model }) : await platformSection({ spec: specOf({ section }), files, ctx, flags: params.platform });
  const scrub = new Redactor({ secrets: [...ctx.secrets] });
  if (!result.ok) {
    throw new UserFacingError({ message: `${scrub.scrub(result.detail)}; nothing was written`, ...(result.hint !== undefined ? { hint: scrub.scrub(result.hint) } : {}), exitCode: CHECK_FAILED_EXIT });
  }
  files.save();
  return { ok: true, detail: scrub.scrub(result.detail), wrote: result.wrote };
}

/** Prints what a section did. */
function report(params: { io: CliIO; profile: Profile; result: Extract<SectionResult, { ok: true }>; ask: Ask | undefined }): void {
  const { io, profile, result, ask } = params;
  const lines = [`✓ ${result.detail}`, `wrote ${profile.configPath}: ${result.wrote.join(', ')}`];
  for (const text of lines) {
    if (ask !== undefined) ask.info({ text });
    else println({ stream: io.stdout, text });
  }
}

/** The context a run gives its sections. */
/** The setup section of a platform the command line named (commander only offers the platforms' names). */
function specOf(params: { section: string }): PlatformSpec {
  const spec = platformSpec({ name: params.section });
  if (spec === undefined) throw new UserFacingError({ message: `no platform is called ${params.section}`, hint: `Run \`hermes setup --help\` for the sections.`, exitCode: 64 });
  return spec;
}

function context(params: { io: CliIO; ask: Ask | undefined; schema: ConfigSchema<AppParsedConfig> }): SectionContext {
  const { io, ask } = params;
  return {
    ask,
    env: io.env,
    schema: params.schema,
    clock: systemClock,
    now: () => systemClock.now(),
    progress: ({ text }) => (ask !== undefined ? ask.info({ text }) : println({ stream: io.stdout, text })),
    secrets: new Set<string>(),
  };
}

/**
 * `hermes setup [section]`: the guided first run (the model, then any platforms) on a terminal, or one section from its
 * flags (--yes, or no terminal). Each section edits config.yaml in place (comments and other keys stay) and .env (0600).
 */
export async function setup(params: { options: GlobalOptions; io: CliIO; section?: SetupSection; yes: boolean; model?: ModelFlags; platform?: PlatformFlags }): Promise<number> {
  const { io } = params;
  const profile = profileFrom(params);
  const interactive = canAsk({ io, yes: params.yes });
  if (params.section === undefined && !interactive) {
    throw new UserFacingError({
      message: '`hermes setup` asks questions, and this is not a terminal',
      hint: 'Run one section from flags instead, e.g. `hermes setup model --base-url URL --api-key-env NAME --model NAME --yes` or `hermes setup telegram --token ... --owner ID --yes`.',
      exitCode: 64,
    });
  }
  ensureProfileDirs({ profile });
  const ask = interactive ? await clackAsk({ input: io.stdin, output: io.stdout }) : undefined;
  const ctx = context({ io, ask, schema: await appConfigSchema() });
  const model = params.model ?? {};
  const platform = params.platform ?? { values: {} };
  if (params.section !== undefined) {
    report({ io, profile, ask, result: await runOne({ profile, section: params.section, ctx, model, platform }) });
    return 0;
  }
  if (ask === undefined) return 64;
  ask.info({ text: `Setting up profile "${profile.name}" (${profile.dir}). Ctrl-C stops without writing the section in progress.` });
  report({ io, profile, ask, result: await runOne({ profile, section: 'model', ctx, model, platform }) });
  await platformsLoop({ io, profile, ask, ctx });
  println({ stream: io.stdout, text: 'Done. `hermes chat` talks to the agent here; `hermes gateway run` (or `gateway install`) starts the platforms.' });
  return 0;
}

/** Offers each platform until the owner is done; a refused credential is shown and the next choice offered. */
async function platformsLoop(params: { io: CliIO; profile: Profile; ask: Ask; ctx: SectionContext }): Promise<void> {
  const { io, profile, ask, ctx } = params;
  const done = new Set<PlatformName>();
  for (;;) {
    const choices = platformSpecs.map((spec) => ({ value: spec.name, label: spec.title, ...(done.has(spec.name) ? { hint: 'set up' } : {}) }));
    const picked = await ask.select({ message: 'Set up a platform?', choices: [{ value: 'done', label: 'No, done' }, ...choices], initial: 'done' });
    if (picked === 'done') return;
    const section = picked;
    try {
      report({ io, profile, ask, result: await runOne({ profile, section, ctx, model: {}, platform: { values: {} } }) });
      done.add(section);
    } catch (error) {
      if (!(error instanceof UserFacingError) || error.exitCode !== CHECK_FAILED_EXIT) throw error;
      ask.info({ text: `✗ ${error.message}${error.hint !== undefined ? `\n  ${error.hint}` : ''}` });
    }
  }
}
