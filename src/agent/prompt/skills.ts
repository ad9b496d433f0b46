import type { PromptLayer } from './types.js';

/** The skills index: names and one-line descriptions of the profile's skills. An empty slot until skills exist. */
export function skillsLayer(): PromptLayer {
  return { name: 'skills', text: '' };
}
