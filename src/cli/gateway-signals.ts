/** Resolves on the first SIGTERM/SIGINT; a second one exits at once. */
export function firstStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

/**
 * Takes over SIGHUP (whose default would end the process): each one calls the handler set with `ready`;
 * one that arrives before then is remembered and handled as soon as a handler is set.
 */
export function hangups(): { ready: (params: { onHangup: () => void }) => void; dispose: () => void } {
  let handler: (() => void) | undefined;
  let early = false;
  const listener = (): void => {
    if (handler) handler();
    else early = true;
  };
  process.on('SIGHUP', listener);
  return {
    ready: ({ onHangup }) => {
      handler = onHangup;
      if (early) {
        early = false;
        onHangup();
      }
    },
    dispose: () => {
      process.off('SIGHUP', listener);
    },
  };
}
