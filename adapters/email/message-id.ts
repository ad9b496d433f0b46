/** Most ids kept from a References header (RFC 5322 lets long chains be trimmed; the first one is the root). */
export const maxReferences = 20;

/** A Message-ID without its angle brackets and surrounding space ("<a@b>" → "a@b"); undefined when empty. */
export function bareId(params: { id: string | undefined }): string | undefined {
  const id = params.id?.trim().replace(/^<+/, '').replace(/>+$/, '').trim();
  return id === undefined || id === '' ? undefined : id;
}

/** The ids in a References / In-Reply-To value, in order, without brackets (a string, or mailparser's array). */
export function idList(params: { value: string | readonly string[] | undefined }): string[] {
  const { value } = params;
  if (value === undefined) return [];
  const parts = typeof value === 'string' ? [value] : value;
  const ids = parts.flatMap((text) => (text.includes('<') ? [...text.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1] ?? '') : text.split(/\s+/)));
  return ids.map((id) => bareId({ id })).filter((id): id is string => id !== undefined);
}

/** An id in angle brackets, as mail headers carry it. */
export function bracketed(params: { id: string }): string {
  return `<${params.id}>`;
}

/**
 * Trims a References chain to `maxReferences` ids, keeping the first (the thread root, which mail clients
 * thread by) and the most recent ones.
 */
export function trimReferences(params: { ids: readonly string[] }): string[] {
  const unique = [...new Set(params.ids)];
  if (unique.length <= maxReferences) return unique;
  return [unique[0] ?? '', ...unique.slice(unique.length - (maxReferences - 1))];
}
