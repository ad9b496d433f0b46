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

/** pino's level methods: a call at a level the parent does not log needs no child. */
const levelMethods = new Set<PropertyKey>(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/** Does nothing (a level method whose level is off). */
function silent(): void {
  // Nothing is logged at this level.
}

/**
 * `logger.child(bindings)`, made only when a line is logged at a level the parent logs (or the child is used any other
 * way). A turn's logger carries its inbox id and chat, and most turns log nothing at the usual levels: making each
 * child anyway (pino serializes and redacts the bindings) cost ~65 µs of every message.
 */
export function lazyChild(params: { logger: Logger; bindings: Record<string, unknown> }): Logger {
  const { logger, bindings } = params;
  let child: Logger | undefined;
  const bound = new Map<PropertyKey, unknown>();
  const real = (): Logger => (child ??= logger.child(bindings));
  const handler: ProxyHandler<Logger> = {
    get: (_target, prop) => {
      if (child === undefined && levelMethods.has(prop) && !logger.isLevelEnabled(String(prop))) return silent;
      // Looking a method up is not using it (fastify checks that a request's logger has `child`).
      if (child === undefined && prop === 'child') return (...args: Parameters<Logger['child']>) => real().child(...args);
      const made = real();
      const value: unknown = Reflect.get(made, prop, made);
      if (typeof value !== 'function') return value;
      let fn = bound.get(prop);
      if (fn === undefined) {
        fn = (value as (...args: unknown[]) => unknown).bind(made);
        bound.set(prop, fn);
      }
      return fn;
    },
    has: (_target, prop) => Reflect.has(real(), prop),
    set: (_target, prop, value: unknown) => Reflect.set(real(), prop, value),
  };
  // The target is only a stand-in (every trap reads the child): pino's own properties on it would bind the proxy's answers.
  return new Proxy({} as Logger, handler);
}
