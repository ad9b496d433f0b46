/** Why a running turn was aborted; passed as the AbortSignal's reason. */
export type TurnAbortKind = 'stop' | 'superseded' | 'new-session' | 'shutdown';

/** The reason object put on a turn's AbortSignal. */
export class TurnAbort extends Error {
  override readonly name = 'TurnAbort';
  /** Which of the ways to end a turn early this was. */
  readonly kind: TurnAbortKind;

  constructor(params: { kind: TurnAbortKind }) {
    super(`turn aborted: ${params.kind}`);
    this.kind = params.kind;
  }
}

/** The abort kind of a signal, if it was aborted by the gateway. */
export function abortKindOf(params: { signal: AbortSignal }): TurnAbortKind | undefined {
  const { signal } = params;
  return signal.aborted && signal.reason instanceof TurnAbort ? signal.reason.kind : undefined;
}
