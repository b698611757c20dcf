// `mocks:` of a test case: replace components in the config tree before it is built, by JSON
// pointer first, then by label. A mock without a label keeps the label of what it replaces, so
// a mocked resource is still found by its name.
import { isPlainObject } from '../../config/normalise.js';
import {
  describePath,
  labelledPaths,
  parsePointer,
  setValueAt,
  type TreePath,
  valueAt,
} from './config_tree.js';

export function applyMocks(root: unknown, mocks: Record<string, unknown>): void {
  const byLabel: [string, unknown][] = [];
  for (const [key, mock] of Object.entries(mocks)) {
    if (key.startsWith('/')) setMock(root, parsePointer(key), mock, key);
    else byLabel.push([key, mock]);
  }
  if (byLabel.length === 0) return;
  const paths = labelledPaths(root);
  for (const [label, mock] of byLabel) {
    const path = paths.get(label);
    if (!path) {
      throw new Error(
        `mock for label '${label}' could not be applied as the label was not found in the test target file, it is not currently possible to mock resources imported separate to the test file`,
      );
    }
    setMock(root, path, mock, label);
  }
}

function setMock(root: unknown, path: TreePath, mock: unknown, key: string): void {
  const replacement = structuredClone(mock);
  if (isPlainObject(replacement) && replacement.label === undefined) {
    let original: unknown;
    try {
      original = valueAt(root, path);
    } catch {
      original = undefined;
    }
    if (isPlainObject(original) && typeof original.label === 'string') replacement.label = original.label;
  }
  try {
    setValueAt(root, path, replacement);
  } catch (err) {
    throw new Error(`failed to set mock '${key}' at ${describePath(path)}: ${(err as Error).message}`);
  }
}
