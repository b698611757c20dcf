// Builds a scanner from a nested `scanner` field value (inputs and wrapping scanners use this).
import type { BuildContext } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { scanners } from './index.js';
import { type Scanner, scannerNameAndConfig, withFieldDefaults } from './scanner.js';

export async function buildScanner(value: unknown, ctx: BuildContext): Promise<Scanner> {
  const { name, config } = scannerNameAndConfig(value);
  const spec = scanners.find((s) => s.name === name);
  if (!spec) throw new ConfigError(`scanner ${name} is not known`);
  const full = spec.root ? (config ?? spec.root.default) : withFieldDefaults(spec.fields, config);
  const lint = spec.lint?.(full) ?? [];
  if (lint.length > 0) throw new ConfigError(`scanner ${name}: ${lint.join('; ')}`);
  return (await spec.build(full, ctx)) as Scanner;
}
