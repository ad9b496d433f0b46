import { z } from 'zod';

/** A zod schema of any kind. */
type AnySchema = z.core.$ZodType;

/** Strips default/prefault/optional/nullable wrappers to reach the schema that does the work. */
export function unwrapSchema(params: { schema: AnySchema }): AnySchema {
  let current = params.schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap();
    } else {
      return current;
    }
  }
}

/** The key → schema map of an object schema (through wrappers), or undefined for anything else. */
export function objectShape(params: { schema: AnySchema }): Readonly<Record<string, AnySchema>> | undefined {
  const inner = unwrapSchema(params);
  return inner instanceof z.ZodObject ? (inner.shape) : undefined;
}

/** The schema found at `path` below `schema` (object keys only), or undefined when there is none. */
export function schemaAt(params: { schema: AnySchema; path: readonly PropertyKey[] }): AnySchema | undefined {
  let current: AnySchema | undefined = params.schema;
  for (const key of params.path) {
    if (current === undefined || typeof key !== 'string') return undefined;
    current = objectShape({ schema: current })?.[key];
  }
  return current;
}

/** Every leaf key path of an object schema, e.g. [["model","base_url"], ["gateway","http","port"], ...]. */
export function leafPaths(params: { schema: AnySchema; prefix?: readonly string[] }): string[][] {
  const shape = objectShape({ schema: params.schema });
  const prefix = params.prefix ?? [];
  if (shape === undefined) return [[...prefix]];
  const out: string[][] = [];
  for (const [key, child] of Object.entries(shape)) {
    out.push(...leafPaths({ schema: child, prefix: [...prefix, key] }));
  }
  return out;
}
