// `ulid()`, `snowflake_id()` and `.compare_bcrypt()`: the plugin functions real configs use.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { crockford, nextSnowflake, ulidBytes } from '../../src/bloblang/functions/sortable_ids.js';
import { BloblangParseError, MappingError, parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

const require = createRequire(import.meta.url);

function run(mapping: string, input = '{}'): unknown {
  const res = parseMapping(mapping).apply([new Message(input)], 0);
  assert.ok(res, 'message was deleted');
  return res.structured();
}

const SNOWFLAKE_EPOCH_MS = 1_288_834_974_657n;

describe('ulid()', () => {
  test('is 26 Crockford characters, time-ordered, each one different', () => {
    const before = Date.now();
    const ids = run('root = range(0, 50).map_each(ulid())') as string[];
    for (const id of ids) assert.match(id, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    assert.equal(new Set(ids).size, ids.length);
    // The first ten characters are the milliseconds: decode them back.
    let ms = 0;
    for (const ch of (ids[0] as string).slice(0, 10))
      ms = ms * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(ch);
    assert.ok(ms >= before && ms <= Date.now(), `timestamp ${ms}`);
  });

  test('encodes like the ULID spec, and as 32 hex digits with "hex"', () => {
    const bytes = ulidBytes(1_469_918_176_385);
    bytes.fill(0, 6);
    assert.equal(crockford(bytes), '01ARYZ6S410000000000000000');
    assert.match((run('root.id = ulid("hex", "fast_random")') as { id: string }).id, /^[0-9a-f]{32}$/);
  });

  test('refuses an unknown encoding or randomness source', () => {
    assert.throws(() => run('root = ulid("base64")'), /invalid ulid encoding: base64/);
    assert.throws(() => run('root = ulid(random_source: "dice")'), /invalid randomness source: dice/);
  });
});

describe('snowflake_id()', () => {
  test('is a decimal string holding the time, the node and a sequence', () => {
    const before = BigInt(Date.now());
    const ids = (run('root = range(0, 20).map_each(snowflake_id(7))') as string[]).map(BigInt);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, 'strictly increasing');
    const id = ids[0]!;
    assert.equal((id >> 12n) & 1023n, 7n);
    const ms = (id >> 22n) + SNOWFLAKE_EPOCH_MS;
    assert.ok(ms >= before && ms <= BigInt(Date.now()) + 1n, `timestamp ${ms}`);
    assert.equal((BigInt(run('root = snowflake_id()') as string) >> 12n) & 1023n, 1n, 'node 1 by default');
  });

  test('moves to the next millisecond when one is full, never repeating', () => {
    const seen = new Set<bigint>();
    for (let i = 0; i < 5000; i++) seen.add(nextSnowflake(900, 1_700_000_000_000));
    assert.equal(seen.size, 5000);
  });

  test('refuses a node id outside 0..1023', () => {
    assert.throws(() => run('root = snowflake_id(1024)'), /between 0 and 1023/);
  });
});

describe('compare_bcrypt()', () => {
  const bcrypt = require('bcryptjs') as typeof import('bcryptjs');
  const hash = bcrypt.hashSync('hunter2', 4);

  test('is true for the password of the hash and false for another', () => {
    const doc = JSON.stringify({ hash });
    assert.equal(run('root = "hunter2".compare_bcrypt(this.hash)', doc), true);
    assert.equal(run('root = "hunter3".compare_bcrypt(this.hash)', doc), false);
  });

  test('fails on a hash that is not bcrypt, naming why', () => {
    assert.throws(
      () => run('root = "x".compare_bcrypt(this.hash)', JSON.stringify({ hash: 'abc' })),
      (err) => err instanceof MappingError && /hashedSecret too short/.test(err.message),
    );
    assert.throws(
      () => parseMapping(`root = "x".compare_bcrypt("${'#'.repeat(60)}")`),
      (err) => err instanceof BloblangParseError && /must start with '\$'/.test(err.message),
    );
  });
});
