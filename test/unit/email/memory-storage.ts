import type { AdapterStorage } from '../../../src/core/adapter.js';

/** An in-memory AdapterStorage; `values` shows what was persisted. */
export function memoryStorage(): AdapterStorage & { readonly values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: ({ name }) => values.get(name),
    set: ({ name, value }) => void values.set(name, value),
  };
}
