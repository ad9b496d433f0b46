/** Characters of filler in one generation's entry: large enough that a kill often lands inside a write. */
const FILLER_CHARS = 2_000_000;

/** The MEMORY.md entry of generation `generation`: "gen=N:" then filler derived from N, so a torn entry is detectable. */
export function generationText(params: { generation: number }): string {
  const unit = `${params.generation}-`;
  return `gen=${params.generation}:${unit.repeat(Math.ceil(FILLER_CHARS / unit.length))}`;
}

/** The generation an entry holds when it is exactly a generation entry; undefined otherwise. */
export function generationOf(params: { entry: string }): number | undefined {
  const match = /^gen=(\d+):/.exec(params.entry);
  if (!match) return undefined;
  const generation = Number(match[1]);
  return params.entry === generationText({ generation }) ? generation : undefined;
}
