import type { GlobalOptions } from '../context.js';
import type { CliIO } from '../output.js';
import { canAsk, setup } from './run.js';

/**
 * `hermes chat` without a usable model: on a terminal, asks "Set up a model now?" (default no) and runs
 * `hermes setup model`; true when a model was set up (the caller reloads the profile). Without a terminal: false.
 */
export async function offerModelSetup(params: { options: GlobalOptions; io: CliIO; problem: string }): Promise<boolean> {
  const { io } = params;
  if (!canAsk({ io, yes: false })) return false;
  const { clackAsk } = await import('./ask.js');
  const ask = await clackAsk({ input: io.stdin, output: io.stdout });
  ask.info({ text: params.problem });
  if (!(await ask.confirm({ message: 'Set up a model now (`hermes setup model`)?', initial: false }))) return false;
  return (await setup({ options: params.options, io, section: 'model', yes: false })) === 0;
}
