// The messages a test case feeds in: content (or a file's bytes, relative to the definition's
// directory) and metadata values as written (structured values stay structured).
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { Message } from '../../message/message.js';
import type { InputMessageSpec } from './definition.js';

export async function inputBatches(specs: InputMessageSpec[][], dir: string): Promise<Message[][]> {
  const batches: Message[][] = [];
  for (const [b, batch] of specs.entries()) {
    const messages: Message[] = [];
    for (const [i, spec] of batch.entries()) {
      try {
        messages.push(await inputMessage(spec, dir));
      } catch (err) {
        throw new Error(`failed to create test input ${i} of batch ${b}: ${(err as Error).message}`);
      }
    }
    batches.push(messages);
  }
  return batches;
}

async function inputMessage(spec: InputMessageSpec, dir: string): Promise<Message> {
  const content = spec.file
    ? await readFile(isAbsolute(spec.file) ? spec.file : join(dir, spec.file))
    : spec.content;
  const msg = new Message(content);
  for (const [key, value] of Object.entries(spec.metadata)) msg.setMeta(key, value);
  return msg;
}
