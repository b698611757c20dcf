// Paths given as files or glob patterns (`file.paths`, `-r`, `nekton lint`): one expansion rule.
import { isAbsolute } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/**
 * The files a pattern names: a plain path as given (whether it exists is the caller's question),
 * a glob's matching files sorted, so the order of reading is stable.
 */
export async function filesOfPattern(pattern: string): Promise<string[]> {
  if (!isDynamicPattern(pattern)) return [pattern];
  const matched = await glob(pattern, {
    onlyFiles: true,
    expandDirectories: false,
    absolute: isAbsolute(pattern),
  });
  return matched.sort();
}
