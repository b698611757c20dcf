// Builds `archive` and `unarchive` and runs them on batches, for the archive tests.
import { readFileSync } from 'node:fs';
import { spec as archive } from '../../../src/components/processors/archive.js';
import { spec as unarchive } from '../../../src/components/processors/unarchive.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

export const archiveFixture = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/archive/${name}`, import.meta.url));

/** Messages with the given contents, each with metadata `n` = its index. */
export function messages(contents: (string | Uint8Array)[]): Message[] {
  return contents.map((content, i) => {
    const msg = new Message(content);
    msg.setMeta('n', String(i));
    return msg;
  });
}

async function run(
  processor: { process(batch: Message[]): unknown },
  batch: Message[],
): Promise<Message[][]> {
  return (await processor.process(batch)) as Message[][];
}

export async function archiveBatch(format: string, batch: Message[], path = ''): Promise<Message[][]> {
  return run(await archive.build({ format, path }, createTestContext()), batch);
}

export async function unarchiveBatch(format: string, batch: Message[]): Promise<Message[][]> {
  return run(await unarchive.build({ format }, createTestContext()), batch);
}

/** Unarchives one message; returns the messages of the one resulting batch. */
export async function unarchiveOne(format: string, content: string | Uint8Array): Promise<Message[]> {
  const out = await unarchiveBatch(format, [new Message(content)]);
  return out[0] ?? [];
}
