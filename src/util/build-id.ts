/** Set by scripts/build.ts (esbuild `define`): a hash of the sources and lockfile the bundle was built from. */
declare const __HERMES_BUILD_ID__: string | undefined;

/**
 * The running build's id, which changes whenever the code or a dependency does; null when running from source
 * (tsx), where nothing marks an edit, so whatever is keyed by it must not be trusted there.
 */
export function buildId(): string | null {
  return typeof __HERMES_BUILD_ID__ === 'string' ? __HERMES_BUILD_ID__ : null;
}
