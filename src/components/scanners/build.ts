// Builds a scanner from a nested `scanner` field value (inputs and wrapping scanners use this).
import { lintText } from '../../config/spec.js';
import type { BuildContext } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { type Scanner, scannerNameAndConfig, withFieldDefaults } from './scanner.js';

/**
 * `at` is where the scanner value sits in the config (`root.input.file.scanner`); the scanner's
 * build sees it as `ctx.path`, so its config errors and nested scanners can name their fields.
 */
export async function buildScanner(value: unknown, ctx: BuildContext, at = ctx.path): Promise<Scanner> {
  const { name, config } = scannerNameAndConfig(value);
  // The list is loaded when a scanner is built, not with this module: the wrapping scanners in it
  // (decompress, skip_bom, switch) import this module, and a static import back would be a cycle.
  const { scanners } = await import('./index.js');
  const spec = scanners.find((s) => s.name === name);
  if (!spec) throw new ConfigError(`scanner ${name} is not known`);
  const full = spec.root ? (config ?? spec.root.default) : withFieldDefaults(spec.fields, config);
  const lint = spec.lint?.(full) ?? [];
  if (lint.length > 0) throw new ConfigError(`scanner ${name}: ${lint.map(lintText).join('; ')}`);
  // A child of ctx, not a copy: BuildContext has getters that must stay lazy.
  const scannerCtx: BuildContext = Object.create(ctx, { path: { value: at } });
  return (await spec.build(full, scannerCtx)) as Scanner;
}
