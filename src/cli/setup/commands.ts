import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import type { CliIO } from '../output.js';
import { platformSpecs } from './platform-specs.js';

/** Adds `hermes setup [model|<platform>]` (the platforms of adapters/index.ts); each section's module loads when it runs. */
export function addSetupCommands(params: { program: Command; globals: () => GlobalOptions; io: CliIO; setExit: (code: number) => void }): void {
  const { globals, io, setExit } = params;
  const setup = params.program
    .command('setup')
    .description('guided first run: the model (key to .env, model from the endpoint\'s list, one test request), then platforms')
    .option('--yes', 'ask nothing (sections then take their flags)')
    .action(async (opts: { yes?: boolean }) => setExit(await (await import('./run.js')).setup({ options: globals(), io, yes: opts.yes === true })));
  setup
    .command('model')
    .description('the model endpoint: base URL, API key, model name; tested with one tiny request before anything is written')
    .option('--base-url <url>', 'the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1')
    .option('--api-key <key>', 'the API key (it goes to .env; prefer --api-key-env, which keeps it out of the process list)')
    .option('--api-key-env <name>', 'read the key from $NAME; written to .env as NAME and referenced as ${NAME}')
    .option('--model <name>', 'the model name (default: the one config.yaml has)')
    .option('--yes', 'ask nothing: use the flags and what config.yaml has')
    .action(async (opts: { baseUrl?: string; apiKey?: string; apiKeyEnv?: string; model?: string; yes?: boolean }) => {
      const { yes, ...model } = opts;
      setExit(await (await import('./run.js')).setup({ options: globals(), io, section: 'model', yes: yes === true, model }));
    });
  for (const spec of platformSpecs) {
    const name = spec.name;
    const command = setup.command(name).description(`${spec.title}: credentials checked live, then enabled with the owner in allowed_users`);
    for (const field of spec.fields) command.option(`--${field.flag} <value>`, field.label);
    command
      .option('--owner <id>', `the owner's ${spec.title} id, added to allowed_users`)
      .option('--yes', 'ask nothing: use the flags and what config.yaml has')
      .action(async (opts: Record<string, string | boolean | undefined>) => {
        const values: Record<string, string | undefined> = {};
        for (const field of spec.fields) {
          const value = opts[camel(field.flag)];
          if (typeof value === 'string') values[field.flag] = value;
        }
        const owner = typeof opts['owner'] === 'string' ? opts['owner'] : undefined;
        const platform = { values, ...(owner !== undefined ? { owner } : {}) };
        setExit(await (await import('./run.js')).setup({ options: globals(), io, section: name, yes: opts['yes'] === true, platform }));
      });
  }
}

/** commander's property name for a flag ("api-root" → "apiRoot"). */
function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
