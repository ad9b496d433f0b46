/** A byte count for people: "5 MB", "512 KB" (rounded; never "0 MB" for a small limit). */
export function sizeText(params: { bytes: number }): string {
  const mb = params.bytes / 1024 / 1024;
  if (mb >= 1) return `${Math.round(mb * 10) / 10} MB`;
  return `${Math.max(1, Math.round(params.bytes / 1024))} KB`;
}
