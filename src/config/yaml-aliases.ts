import { visit, type Document, type LineCounter } from 'yaml';
import { configError } from './errors.js';

/**
 * Throws a ConfigError for an alias the YAML cannot be turned into plain data with: one that refers to an
 * anchor containing it (`a: &a [*a]`, an endless value) or to an anchor not defined before it.
 */
export function checkAliases(params: { doc: Document; lineCounter: LineCounter; file: string }): void {
  const { doc, lineCounter, file } = params;
  visit(doc, {
    Alias: (_key, node, ancestors) => {
      const pos = node.range ? lineCounter.linePos(node.range[0]) : undefined;
      const where = pos === undefined ? file : `${file}:${pos.line}:${pos.col}`;
      const target = node.resolve(doc);
      if (target === undefined) {
        throw configError({
          file,
          location: where,
          detail: `YAML alias *${node.source} has no anchor &${node.source} before it`,
          hint: `Define &${node.source} before ${where} uses *${node.source}, or write the value out there.`,
        });
      }
      if (ancestors.includes(target)) {
        throw configError({
          file,
          location: where,
          detail: `YAML alias *${node.source} is inside the value anchored as &${node.source}; aliases must not refer to themselves`,
          hint: `Remove *${node.source} at ${where} or move it outside the &${node.source} block (it would make the value endless).`,
        });
      }
    },
  });
}
