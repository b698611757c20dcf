// The JSON documents W2-W5 move, and the 10-assignment mapping applied to them. The hand-written
// JavaScript doing the same work is bench/baselines/doc_mapping.mjs; keep the two in step.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
const cities = ['Lyon', 'Oslo', 'Porto', 'Kyoto', 'Quito', 'Perth'];

/** Document number `i`: nested fields, strings to case-fold, numbers to multiply, an array. */
export function makeDocument(i: number): string {
  const name = names[i % names.length]!;
  return JSON.stringify({
    id: i,
    user: {
      name,
      email: ` ${name.toUpperCase()}@Example.COM `,
      age: 18 + (i % 60),
      address: { city: cities[i % cities.length], country: i % 3 === 0 ? null : 'FR' },
    },
    price: (i % 1000) / 10,
    qty: 1 + (i % 7),
    tags: ['new', i % 2 === 0 ? 'even' : 'odd', 'bench'],
    score: i % 101,
    status: i % 4 === 0 ? 'inactive' : 'active',
  });
}

/** Writes `count` documents, one per line. */
export async function writeDocuments(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk: string[] = [];
  for (let i = 0; i < count; i++) {
    chunk.push(makeDocument(i));
    if (chunk.length === 10_000 || i === count - 1) {
      if (!out.write(`${chunk.join('\n')}\n`)) await once(out, 'drain');
      chunk.length = 0;
    }
  }
  out.end();
  await once(out, 'finish');
}

/** Ten assignments: nested paths, string methods, arithmetic, a coalesce, a join and a `match`. */
export const DOC_MAPPING = `root.id = this.id
root.name = this.user.name.uppercase()
root.email = this.user.email.lowercase().trim()
root.age_months = this.user.age * 12
root.total = this.price * this.qty
root.city = this.user.address.city
root.country = this.user.address.country.or("unknown")
root.tags = this.tags.join(",")
root.tier = match {
  this.score >= 90 => "gold"
  this.score >= 50 => "silver"
  _ => "bronze"
}
root.active = this.status == "active"
`;

/** The mapping as a YAML block scalar under `- mapping: |`, indented by `indent` spaces. */
export function mappingYaml(indent: number): string {
  const pad = ' '.repeat(indent);
  return `${pad}- mapping: |\n${DOC_MAPPING.trimEnd()
    .split('\n')
    .map((l) => `${pad}    ${l}`)
    .join('\n')}\n`;
}
