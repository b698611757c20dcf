// Loads the .proto files of the `protobuf` processor's import paths into one protobufjs root, as
// the reference does: every .proto file under each directory (hidden files skipped), imports
// resolved against the same directories, Google's well-known types built in.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type protobuf from 'protobufjs';
import { protobufNow } from '../../base/lazy_packages.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';

/** Every non-hidden .proto file under dir, depth first in name order. */
function protoFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...protoFilesUnder(full));
    else if (entry.name.endsWith('.proto') && !entry.name.startsWith('.')) found.push(full);
  }
  return found;
}

/** Parses every .proto file under the import paths (relative to the working directory). */
export function loadProtoRoot(importPaths: string[]): protobuf.Root {
  const dirs = (importPaths.length > 0 ? importPaths : ['.']).map((p) => resolve(p));
  const files: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new ConfigError(`unable to load protos: import path '${dir}' is not a directory`);
    files.push(...protoFilesUnder(dir));
  }
  const root = new (protobufNow().Root)();
  // protobufjs resolves each file just before reading and parsing it: the last one resolved is
  // the one a parse error is about.
  let current = '';
  // An import names a file relative to one of the import paths; unknown names fall through to
  // protobufjs's bundled google/protobuf files (or fail to load, naming the import).
  root.resolvePath = (_origin, target) => {
    current = target;
    if (target.startsWith('/')) return target;
    for (const dir of dirs) {
      const candidate = join(dir, target);
      if (existsSync(candidate)) {
        current = candidate;
        return candidate;
      }
    }
    return target;
  };
  try {
    root.loadSync(files, { keepCase: true });
    root.resolveAll();
  } catch (err) {
    const message = errorMessage(err);
    const where = current !== '' && !message.includes(current) ? ` (in ${current})` : '';
    throw new ConfigError(`unable to load protos: ${message}${where}`);
  }
  return root;
}

/** The message type of a fully qualified name, or a config error naming it. */
export function findMessageType(root: protobuf.Root, name: string, importPaths: string[]): protobuf.Type {
  if (name === '') throw new ConfigError('message field must not be empty');
  try {
    return root.lookupType(name.startsWith('.') ? name : `.${name}`);
  } catch {
    throw new ConfigError(`unable to find message '${name}' definition within '[${importPaths.join(' ')}]'`);
  }
}
