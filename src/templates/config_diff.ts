// The differences between an expected and an actual config, one line per differing path, for
// template tests (`fallback.1.file.codec: expected "lines", got "all-bytes"`).

export function configDifferences(expected: unknown, actual: unknown, path = ''): string[] {
  const at = path === '' ? 'root' : path;
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    return keys.flatMap((key) => configDifferences(expected[key], actual[key], join(path, key)));
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    const out: string[] = [];
    for (let i = 0; i < length; i++)
      out.push(...configDifferences(expected[i], actual[i], join(path, String(i))));
    return out;
  }
  if (expected === undefined && actual === undefined) return [];
  if (expected === undefined) return [`${at}: not expected, got ${show(actual)}`];
  if (actual === undefined) return [`${at}: expected ${show(expected)}, got nothing`];
  if (JSON.stringify(expected) === JSON.stringify(actual)) return [];
  return [`${at}: expected ${show(expected)}, got ${show(actual)}`];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
