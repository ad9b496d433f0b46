/** The little the store logs; a pino Logger satisfies it. */
export interface StoreLogger {
  /** Routine events (migrations applied). */
  info(obj: object, msg: string): void;
  /** Something degraded but the store carries on (e.g. WAL could not be enabled). */
  warn(obj: object, msg: string): void;
}

/** A logger that drops everything, used when the caller passes none. */
export const silentStoreLogger: StoreLogger = {
  info: () => undefined,
  warn: () => undefined,
};
