import type { Readable, Writable } from 'node:stream';
import { UserFacingError } from '../../core/errors.js';

/** One choice of a select prompt. */
export interface Choice {
  /** What is returned when it is picked. */
  readonly value: string;
  /** What is shown. */
  readonly label: string;
  /** Shown dimmed next to the label. */
  readonly hint?: string;
}

/** The questions a setup section asks; the interactive one is clack on the terminal. */
export interface Ask {
  /** A line of text; `validate` returns what is wrong, or undefined. */
  text(params: { message: string; initial?: string; placeholder?: string; validate?: (value: string) => string | undefined }): Promise<string>;
  /** A secret, masked while typed; '' when left empty. */
  secret(params: { message: string }): Promise<string>;
  /** One of `choices`, picked with the arrow keys. */
  select(params: { message: string; choices: readonly Choice[]; initial?: string }): Promise<string>;
  /** Yes or no. */
  confirm(params: { message: string; initial: boolean }): Promise<boolean>;
  /** A line of information ("✓ bot @x") between questions. */
  info(params: { text: string }): void;
}

/** The user pressed Ctrl-C (or Esc) at a question: the section stops, nothing is written. */
export function cancelled(): UserFacingError {
  return new UserFacingError({ message: 'setup cancelled; nothing was written', exitCode: 130 });
}

/** Questions on the terminal with @clack/prompts (loaded only when setup runs interactively). */
export async function clackAsk(params: { input: Readable; output: Writable }): Promise<Ask> {
  const clack = await import('@clack/prompts');
  const io = { input: params.input, output: params.output };
  const answer = <T extends string | boolean>(value: T | symbol): T => {
    if (typeof value === 'symbol') throw cancelled();
    return value;
  };
  return {
    text: async ({ message, initial, placeholder, validate }) =>
      answer<string>(
        await clack.text({
          ...io,
          message,
          ...(initial !== undefined ? { initialValue: initial } : {}),
          ...(placeholder !== undefined ? { placeholder } : {}),
          ...(validate !== undefined ? { validate: (value: string | undefined) => validate(value ?? '') } : {}),
        }),
      ).trim(),
    secret: async ({ message }) => answer<string>(await clack.password({ ...io, message })).trim(),
    select: async ({ message, choices, initial }) =>
      answer<string>(
        await clack.select<string>({
          ...io,
          message,
          maxItems: 12,
          options: choices.map((choice) => ({ value: choice.value, label: choice.label, ...(choice.hint !== undefined ? { hint: choice.hint } : {}) })),
          ...(initial !== undefined ? { initialValue: initial } : {}),
        }),
      ),
    confirm: async ({ message, initial }) => answer<boolean>(await clack.confirm({ ...io, message, initialValue: initial })),
    info: ({ text }) => clack.log.info(text, { output: params.output }),
  };
}
