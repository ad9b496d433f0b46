import type { Logger } from 'pino';

/** Children made per parent logger, by component and the level they were made at. */
const made = new WeakMap<Logger, Map<string, Logger>>();

/**
 * `logger.child({ component })`, made once per parent, component and level rather than per turn: pino serializes and
 * redacts a child's bindings each time one is made, which cost ~0.1 ms of every message. A child keeps the level it
 * was made at, so a reload that changes the parent's level gets a new one.
 */
export function componentLogger(params: { logger: Logger; component: string }): Logger {
  const { logger, component } = params;
  let children = made.get(logger);
  if (children === undefined) {
    children = new Map();
    made.set(logger, children);
  }
  const key = `${component}\u0000${logger.level}`;
  let child = children.get(key);
  if (child === undefined) {
    child = logger.child({ component });
    children.set(key, child);
  }
  return child;
}
