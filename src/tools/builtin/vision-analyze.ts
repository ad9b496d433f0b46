import path from 'node:path';
import { z } from 'zod';
import { canonicalPath, isWithin, resolveInWorkspace } from '../paths.js';
import { defineTool, type ToolContext } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import type { ImageSource } from '../../media/vision.js';

/** Hermes Agent's `{image_url, question}`: image_url is an http(s) URL or a file path. */
const input = z.object({
  image_url: z.string().min(1),
  question: z.string().min(1),
});

/** Where the image is: a web address, a photo of the chat in the media cache, or a file of the workspace (confined as file tools are). */
function sourceOf(params: { imageUrl: string; ctx: ToolContext; cacheDir: string }): ImageSource {
  const { imageUrl, ctx } = params;
  if (/^https?:\/\//i.test(imageUrl)) return { url: imageUrl };
  if (/^[a-z][a-z0-9+.-]*:/i.test(imageUrl) && !path.isAbsolute(imageUrl)) throw new ToolError(`vision_analyze reads http(s) URLs and file paths, not ${imageUrl.split(':')[0]}: addresses.`);
  const requested = path.resolve(ctx.workspace, imageUrl);
  // The chat's photos are kept in the profile's media cache, outside the workspace: those are readable too.
  if (isWithin({ root: canonicalPath({ path: params.cacheDir }), child: canonicalPath({ path: requested }) })) return { path: requested };
  return { path: resolveInWorkspace({ workspace: ctx.workspace, path: imageUrl, confine: ctx.confineToWorkspace }) };
}

/** `vision_analyze`: a model that sees answers a question about an image (a file, a photo of the chat, a web address). */
export const visionAnalyzeTool = defineTool({
  name: 'vision_analyze',
  description: 'Look at an image (file path or http(s) URL) and answer a question about it.',
  input,
  parallel: 'safe',
  toolsets: ['vision'],
  offeredWith: 'vision',
  progress: { emoji: '👁️', arg: 'image_url' },
  handler: async (args, ctx) => {
    const vision = ctx.vision;
    if (vision === undefined) throw new ToolError('vision_analyze is not available here.');
    const source = sourceOf({ imageUrl: args.image_url, ctx, cacheDir: vision.cacheDir });
    try {
      return await vision.analyze({ source, question: args.question, signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw new ToolError(`vision_analyze could not look at ${args.image_url}: ${error instanceof Error ? error.message : String(error)}.`);
    }
  },
});
