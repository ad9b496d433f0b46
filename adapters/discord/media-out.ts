/** A size people read: KB below one MB, else MB with one decimal. */
function readable(params: { bytes: number }): string {
  const { bytes } = params;
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The line a reply carries instead of a file over the upload limit: what happened and what to do. */
export function oversizeNote(params: { name: string; size: number; limit: number }): string {
  return `⚠️ Could not attach ${params.name}: it is ${readable({ bytes: params.size })}, over the ${readable({ bytes: params.limit })} Discord upload limit `
    + '(platforms.discord.max_file_size). Ask for a smaller file, or raise the limit if the server allows bigger uploads.';
}
