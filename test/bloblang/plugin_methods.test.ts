// The reference's plugin functions and methods that real configs use: results and errors.
// Expected values come from the reference's documentation and tests (redpanda-data/connect
// internal/impl/{crypto,changelog,confluent,html,jsonpath,lang,sql,xml}, benthos public/schema).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { FAKE_FUNCTIONS } from '../../src/bloblang/functions/fake.js';
import { BloblangParseError, MappingError, parseMapping } from '../../src/bloblang/index.js';
import { float32Text } from '../../src/bloblang/methods/vector.js';
import { Message } from '../../src/message/message.js';

/** The value the mapping assigns to root (a string root comes back as that string). */
function run(mapping: string, input = '{}'): unknown {
  const res = parseMapping(mapping.replace(/^root =/, 'root.v =')).apply([new Message(input)], 0);
  assert.ok(res, 'message was deleted');
  return (res.structured() as { v: unknown }).v;
}

function text(mapping: string, input = '{}'): string {
  const res = parseMapping(mapping).apply([new Message(input)], 0);
  assert.ok(res, 'message was deleted');
  return res.text();
}

function fails(mapping: string, pattern: RegExp, input = '{}'): void {
  assert.throws(
    () => parseMapping(mapping).apply([new Message(input)], 0),
    (e: unknown) => (e instanceof MappingError || e instanceof BloblangParseError) && pattern.test(e.message),
  );
}

describe('compare_argon2', () => {
  const id =
    '$argon2id$v=19$m=4096,t=3,p=1$c2FsdHktbWNzYWx0ZmFjZQ$XTu19IC4rYL/ERsDZr2HOZe9bcMx88ARJ/VVfT2Lb3U';
  const i = '$argon2i$v=19$m=4096,t=3,p=1$c2FsdHktbWNzYWx0ZmFjZQ$fyLJGjF+IArVfBnQ6ihK8jQwdNv4sv1aEZGVzBu9oAs';
  const m = 'root = this.user_input.compare_argon2(this.hashed_secret)';
  const check = (hash: string, input: string) =>
    run(m, JSON.stringify({ hashed_secret: hash, user_input: input }));

  test('matches argon2id and argon2i hashes, and never an empty input', () => {
    assert.equal(check(id, 'some-fancy-secret'), true);
    assert.equal(check(id, 'a-blobs-tale'), false);
    assert.equal(check(i, 'some-fancy-secret'), true);
    assert.equal(check(i, 'a-blobs-tale'), false);
    assert.equal(check(id, ''), false);
  });

  test('refuses hashes it cannot read, with the reference wording', () => {
    const bad = (hash: string, pattern: RegExp) =>
      fails(m, pattern, JSON.stringify({ hashed_secret: hash, user_input: 'some-fancy-secret' }));
    bad('', /invalid argon2 hash$/);
    bad(id.replace('$c2FsdHktbWNzYWx0ZmFjZQ', ''), /invalid argon2 hash$/);
    bad(`$lol${id}`, /invalid argon2 hash$/);
    bad(id.replace('argon2id', 'argon2d'), /invalid argon2 hash: unrecognised argon2 format/);
    bad(id.replace('p=1', 'p=137174'), /invalid argon2 hash: parsing parameters/);
    bad(id.replace('p=1', 'p=1lololol'), /invalid argon2 hash: excess characters in parameters segment/);
    bad(id.replace('c2FsdHktbWNzYWx0ZmFjZQ', 'c2F*'), /invalid argon2 hash: parsing base64 salt/);
    // A hostile cost is refused before anything is allocated (1 GiB, or 64 MiB times 1,000 passes).
    bad(id.replace('m=4096', 'm=1048576'), /invalid argon2 hash: cost m=1048576,t=3 is over nekton's limit/);
    bad(id.replace('m=4096,t=3', 'm=65536,t=1000'), /cost m=65536,t=1000 is over/);
  });
});

describe('diff and patch', () => {
  test('diff lists creates, updates and deletes sorted by path', () => {
    assert.deepEqual(
      run(
        'root = this.a.diff(this.b)',
        '{"a":{"x":1,"y":{"z":true},"gone":"g"},"b":{"x":2,"y":{"z":true,"n":[1]}}}',
      ),
      [
        { From: 'g', Path: ['gone'], To: null, Type: 'delete' },
        { From: 1, Path: ['x'], To: 2, Type: 'update' },
        { From: null, Path: ['y', 'n'], To: [1], Type: 'create' },
      ],
    );
    // A new object below the top is one change; diffing with null deletes each top-level key.
    assert.deepEqual(run('root = {}.diff({"o":{"a":1,"b":2}})'), [
      { From: null, Path: ['o'], To: { a: 1, b: 2 }, Type: 'create' },
    ]);
    assert.deepEqual(run('root = {"a":1,"b":{"c":2}}.diff(null)'), [
      { From: 1, Path: ['a'], To: null, Type: 'delete' },
      { From: { c: 2 }, Path: ['b'], To: null, Type: 'delete' },
    ]);
    assert.deepEqual(run('root = "x".diff(null)'), [{ From: 'x', Path: [], To: null, Type: 'delete' }]);
    assert.deepEqual(run('root = {"a":null}.diff({"a":3})'), [
      { From: null, Path: ['a'], To: 3, Type: 'update' },
    ]);
    assert.deepEqual(run('root = {"a":[1,2]}.diff({"a":[2,1]})'), []);
    assert.equal(run('root = null.diff({"a":1})'), null);
  });

  test('diff refuses values of different types at one path', () => {
    fails('root = {"a":1}.diff({"a":"1"})', /types do not match/);
  });

  test('patch applies a changelog, the inverse of diff', () => {
    const input = '{"a":{"x":1,"y":{"z":true},"gone":"g"},"b":{"x":2,"y":{"z":true,"n":[1]}}}';
    assert.deepEqual(run('root = this.a.patch(this.a.diff(this.b))', input), {
      x: 2,
      y: { z: true, n: [1] },
    });
    assert.deepEqual(
      run('root = {"l":[1,2,3]}.patch([{"Type":"delete","Path":["l","1"],"From":2,"To":null}])'),
      { l: [1, 3] },
    );
  });

  test('patch refuses a changelog that is not one', () => {
    fails('root = {}.patch("nope")', /expected a map or struct list/);
    fails('root = {}.patch(["nope"])', /'\[0\]' expected a map/);
    fails('root = {}.patch([{"Type":"rename","Path":["a"]}])', /unknown change type: rename/);
  });
});

describe('with_schema_registry_header', () => {
  test('prepends the magic byte and the big-endian schema id', () => {
    assert.equal(text('root = with_schema_registry_header(123, "hi").encode("hex")'), '000000007b6869');
    assert.equal(
      text('root = with_schema_registry_header(4294967295, content()).encode("hex")'),
      '00ffffffff7b7d',
    );
    assert.equal(text('root = with_schema_registry_header(1.0, "")'), '\u0000\u0000\u0000\u0000\u0001');
  });

  test('refuses ids out of range, non-integers, non-numbers and non-bytes messages', () => {
    fails(
      'root = with_schema_registry_header(-1, "x")',
      /schema ID must be between 0 and 4294967295, got -1/,
    );
    fails('root = with_schema_registry_header(4294967296, "x")', /must be between 0 and 4294967295/);
    fails(
      'root = with_schema_registry_header(1.5, "x")',
      /must be a valid integer between 0 and 4294967295, got 1.500000/,
    );
    fails('root = with_schema_registry_header("1", "x")', /schema ID must be a number, got string/);
    fails('root = with_schema_registry_header(1, {})', /message must be bytes or string/);
  });
});

describe('strip_html', () => {
  test('keeps the text, drops script bodies, escapes as Go does, keeps named elements bare', () => {
    assert.equal(
      run('root = this.h.strip_html()', '{"h":"<p>Welcome to <strong>Redpanda Connect</strong>!</p>"}'),
      'Welcome to Redpanda Connect!',
    );
    assert.equal(
      run(
        'root = this.h.strip_html(["strong"])',
        `{"h":"<b class='x'>It&#39;s</b> <strong id=\\"a\\">5 &lt; 6</strong><style>p{}</style>"}`,
      ),
      'It&#39;s <strong>5 &lt; 6</strong>',
    );
  });

  test('refuses a non-string element name', () => {
    fails('root = "x".strip_html([1])', /invalid arg at index 0: expected string/);
  });
});

describe('json_path', () => {
  const doc =
    '{"name":"alice","foo":{"name":"bob"},"body":[{"type":"image","id":"foo"},{"type":"text","id":"bar"}]}';

  test('gives arrays for wildcards and filters, one value for a definite path', () => {
    assert.deepEqual(run('root = this.json_path("$..name")', doc), ['alice', 'bob']);
    assert.deepEqual(run(`root = this.json_path("$.body[?(@.type=='text')].id")`, doc), ['bar']);
    assert.deepEqual(run('root = this.json_path("$.body[*].type")', doc), ['image', 'text']);
    assert.equal(run('root = this.json_path("$.foo.name")', doc), 'bob');
    assert.equal(run('root = this.json_path("$.body[1].id")', doc), 'bar');
  });

  test('fails on an absent definite path, a bad expression and a non-structured target', () => {
    fails('root = this.json_path("$.missing")', /unknown key/, doc);
    fails('root = this.json_path("name")', /evaluating json path expression/, doc);
    fails('root = "x".json_path("$.a")', /unsupported value type string for select/);
  });
});

describe('slug and unicode_segments', () => {
  test('slug transliterates, lowercases and joins words with dashes, per language', () => {
    assert.equal(
      run('root = "Hello World! Welcome to Redpanda Connect".slug()'),
      'hello-world-welcome-to-redpanda-connect',
    );
    assert.equal(run('root = "Café & Restaurant".slug("fr")'), 'cafe-et-restaurant');
    assert.equal(run('root = "Café & Restaurant".slug()'), 'cafe-and-restaurant');
    assert.equal(run('root = "Grüße aus Köln @ home".slug("de")'), 'gruesse-aus-koeln-an-home');
    assert.equal(run('root = "--It’s_a  “test”--".slug("xx")'), 'its_a-test');
  });

  test('unicode_segments splits graphemes, words and sentences', () => {
    assert.deepEqual(run('root = this.t.unicode_segments("sentence")', '{"t":"Hello world. How are you?"}'), [
      'Hello world. ',
      'How are you?',
    ]);
    assert.deepEqual(run('root = "👨‍👩‍👧‍👦❤️é".unicode_segments("grapheme")'), ['👨‍👩‍👧‍👦', '❤️', 'é']);
    assert.deepEqual(run('root = "Hi, you!".unicode_segments("word")'), ['Hi', ',', ' ', 'you', '!']);
    fails('root = "x".unicode_segments("line")', /unknown segmentation type: line/);
  });
});

describe('vector', () => {
  test('is the pgvector text of the numbers, each a float32', () => {
    assert.equal(run('root = [1, 2.5, 0.1, -3].vector()'), '[1,2.5,0.1,-3]');
    assert.equal(text('root = [0.5].vector()'), '[0.5]');
    assert.equal(float32Text(1 / 3), '0.33333334');
    assert.equal(float32Text(1e-7), '0.0000001');
    assert.equal(float32Text(16777217), '16777216');
  });

  test('refuses a non-array and a non-number element', () => {
    fails('root = "x".vector()', /expected array value/);
    fails(
      'root = [1, "a"].vector()',
      /could not convert value at index 1 to float32: expected number value, got string/,
    );
  });
});

describe('infer_schema', () => {
  const fingerprint = (s: string) => createHash('sha256').update(s).digest('hex');

  test('describes each value with the reference type names and fingerprints', () => {
    assert.deepEqual(run('root = 5.infer_schema()'), {
      type: 'INT64',
      fingerprint: fingerprint('T:3|N:|O:0|C:0|'),
    });
    const schema = run('root = this.infer_schema()', '{"b":"x","a":[1.5,2.5]}') as Record<string, unknown>;
    const a = `T:10|N:a|O:0|C:1|[0:T:5|N:|O:0|C:0|]`;
    const b = 'T:6|N:b|O:0|C:0|';
    assert.deepEqual(schema, {
      type: 'OBJECT',
      fingerprint: fingerprint(`T:8|N:|O:0|C:2|[0:${a}][1:${b}]`),
      children: [
        {
          type: 'ARRAY',
          name: 'a',
          fingerprint: fingerprint(a),
          children: [{ type: 'FLOAT64', fingerprint: fingerprint('T:5|N:|O:0|C:0|') }],
        },
        { type: 'STRING', name: 'b', fingerprint: fingerprint(b) },
      ],
    });
    assert.equal(
      (
        run(
          'root = [true, null, "x".bytes(), "2020-01-01T00:00:00Z".ts_parse("2006-01-02T15:04:05Z")].map_each(v -> v.infer_schema().type)',
        ) as string[]
      ).join(),
      'BOOLEAN,NULL,BYTE_ARRAY,TIMESTAMP',
    );
  });

  test('refuses arrays that mix types, naming where', () => {
    fails('root = {"a":[1,"x"]}.infer_schema()', /\.a\.1 mismatched array types, found INT64 and STRING/);
  });
});

describe('fake', () => {
  test('generates each supported kind of value', () => {
    const values = run(`root = [${FAKE_FUNCTIONS.map((f) => `fake("${f}")`).join(', ')}]`) as unknown[];
    const byName = Object.fromEntries(FAKE_FUNCTIONS.map((f, i) => [f, values[i]]));
    assert.equal(FAKE_FUNCTIONS.length, 45);
    assert.match(String(byName.email), /^[a-z0-9]+@[a-z]+\.[a-z]+$/);
    assert.match(
      String(byName.uuid_hyphenated),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.match(String(byName.ipv4), /^\d{1,3}(\.\d{1,3}){3}$/);
    assert.match(String(byName.mac_address), /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    assert.match(String(byName.date), /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(typeof byName.unix_time, 'number');
    assert.ok(Math.abs(byName.latitude as number) <= 90);
    // A card number passes the Luhn check.
    const cc = String(byName.cc_number);
    let sum = 0;
    for (let k = 0; k < cc.length; k++) {
      let d = Number(cc[cc.length - 1 - k]);
      if (k % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    assert.equal(sum % 10, 0, cc);
    assert.equal(typeof run('root = fake()'), 'string');
    assert.equal(typeof run('root = fake("EMAIL")'), 'string');
  });

  test('refuses an unknown function name', () => {
    fails('root = fake("dragon")', /invalid faker function: dragon/);
  });
});

describe('format_xml', () => {
  const input = '{"foo":{"bar":{"baz":"foo bar baz","-id":"7"},"n":[1,2],"e":{}}}';

  test('writes indented or compact XML, attributes from -keys, repeated elements from arrays', () => {
    assert.equal(
      text('root = this.format_xml()', input),
      '<foo>\n    <bar id="7">\n        <baz>foo bar baz</baz>\n    </bar>\n    <e/>\n    <n>1</n>\n    <n>2</n>\n</foo>',
    );
    assert.equal(
      text('root = this.format_xml(no_indent: true)', input),
      '<foo><bar id="7"><baz>foo bar baz</baz></bar><e/><n>1</n><n>2</n></foo>',
    );
    assert.equal(
      text('root = {"a":"x < y","b":1}.format_xml(indent: "", root_tag: "r")'),
      '<r><a>x &lt; y</a><b>1</b></r>',
    );
    assert.equal(text('root = {"a":1,"b":2}.format_xml(no_indent: true)'), '<doc><a>1</a><b>2</b></doc>');
  });

  test('refuses a target that is not an object', () => {
    fails('root = [1].format_xml()', /expected object value/);
  });
});
