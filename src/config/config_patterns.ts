// Patterns from a component's config: a pattern RE2 refuses is a ConfigError naming the field
// (the linter reports it earlier, on the field's line, when the field is marked `regexp`).
import { ConfigError } from '../engine/errors.js';
import { compilePattern, type Pattern, PatternSyntaxError } from '../regexp/pattern.js';

export function compileConfigPatterns(sources: readonly string[], field: string): Pattern[] {
  return sources.map((source) => {
    try {
      return compilePattern(source);
    } catch (err) {
      if (err instanceof PatternSyntaxError) throw new ConfigError(`${field}: ${err.message}`);
      throw err;
    }
  });
}
