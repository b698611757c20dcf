// The parse_log processor: RFC 5424 and RFC 3164 syslog lines to documents, with the reference
// parser's errors, years and time zones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

const parseLog = (config: Record<string, unknown>) => processor({ parse_log: config });

describe('parse_log processor', () => {
  it('parses an RFC 5424 line with structured data and escapes', async () => {
    const p = await parseLog({ format: 'syslog_rfc5424' });
    const out = await run(
      p,
      batchOf(
        '<42>4 2049-10-11T22:14:15.003Z toaster.smarthome myapp - 2 [home01 device_id="43"] failed to make a toast.',
        '<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - [a@1 k="x\\"y\\]z\\\\w\\n"][b@2] %% It\'s time',
        '<0>1 - - - - - -',
      ),
    );
    assert.deepEqual(texts(out), [
      [
        '{"appname":"myapp","facility":5,"hostname":"toaster.smarthome","message":"failed to make a toast.","msgid":"2","priority":42,"severity":2,"structureddata":{"home01":{"device_id":"43"}},"timestamp":"2049-10-11T22:14:15.003Z","version":4}',
        '{"appname":"myproc","facility":20,"hostname":"192.0.2.1","message":"%% It\'s time","priority":165,"procid":"8710","severity":5,"structureddata":{"a@1":{"k":"x\\"y]z\\\\w\\\\n"},"b@2":{}},"timestamp":"2003-08-24T05:14:15.000003-07:00","version":1}',
        '{"facility":0,"priority":0,"severity":0,"version":1}',
      ],
    ]);
  });

  it('flags RFC 5424 lines that break the format, with the error and its column', async () => {
    const p = await parseLog({ format: 'syslog_rfc5424' });
    const [out] = await run(
      p,
      batchOf(
        'no pri',
        '<192>1 - - - - - -',
        '<1>0 - - - - - -',
        '<1>1 2003-13-01T00:00:00Z h a p m -',
        '<1>1 - h a p m [x k=v]',
      ),
    );
    assert.deepEqual(
      out!.map((m) => m.error?.message),
      [
        'expecting a priority value within angle brackets [col 0]',
        'expecting a priority value in the range 1-191 or equal to 0 [col 3]',
        'expecting a version value in the range 1-999 [col 3]',
        'expecting a RFC3339MICRO timestamp or a nil value [col 5]',
        'expecting a structured data parameter (`key="value"`, both part from 1 to max 32 US-ASCII characters; key cannot contain `=`, ` `, `]`, and `"`, while value cannot contain `]`, backslash, and `"` unless escaped) [col 20]',
      ],
    );
    assert.equal(out![0]!.text(), 'no pri');
  });

  it('parses RFC 3164 lines with a tag and pid, a set year and a time zone', async () => {
    const p = await parseLog({
      format: 'syslog_rfc3164',
      default_year: '1997',
      default_timezone: 'America/New_York',
    });
    const out = await run(
      p,
      batchOf('<28>Dec  2 16:49:23 host app[23410]: Test', '<13>Jul 14 00:00:01 web01 plain message here'),
    );
    assert.deepEqual(texts(out), [
      [
        '{"appname":"app","facility":3,"hostname":"host","message":"Test","priority":28,"procid":"23410","severity":4,"timestamp":"1997-12-02T11:49:23-05:00"}',
        '{"facility":1,"hostname":"web01","message":"plain message here","priority":13,"severity":5,"timestamp":"1997-07-13T20:00:01-04:00"}',
      ],
    ]);
  });

  it('takes RFC 3339 timestamps in RFC 3164 lines only with allow_rfc3339, and the current year by default', async () => {
    const line = '<34>2024-02-29T10:00:00+02:00 host su: hi';
    const allowed = await parseLog({ format: 'syslog_rfc3164' });
    assert.deepEqual(texts(await run(allowed, batchOf(line))), [
      [
        '{"appname":"su","facility":4,"hostname":"host","message":"hi","priority":34,"severity":2,"timestamp":"2024-02-29T10:00:00+02:00"}',
      ],
    ]);
    const strict = await parseLog({ format: 'syslog_rfc3164', allow_rfc3339: false });
    const [[m]] = await run(strict, batchOf(line));
    assert.equal(m!.error!.message, 'expecting a Stamp timestamp [col 4]');
    const [[current]] = await run(allowed, batchOf('<34>Jan  5 01:02:03 h m'));
    assert.equal(
      (current!.structured() as { timestamp: string }).timestamp,
      `${new Date().getUTCFullYear()}-01-05T01:02:03Z`,
    );
  });

  it('does not lint a default_year that is not a number or an unknown default_timezone', () => {
    assert.deepEqual(
      lintComponent(
        'processor',
        'parse_log:\n  format: syslog_rfc3164\n  default_year: soon\n  default_timezone: Mars/Olympus\n',
      ),
      [
        'failed to convert year soon into integer:  strconv.Atoi: parsing "soon": invalid syntax',
        'failed to lookup timezone Mars/Olympus - unknown time zone Mars/Olympus',
      ],
    );
    assert.deepEqual(lintComponent('processor', 'parse_log:\n  format: syslog_rfc5424\n'), []);
  });
});
