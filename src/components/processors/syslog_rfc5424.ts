// RFC 5424 syslog lines to the reference's parse_log document, with the errors (and their
// columns) of the reference's parser (go-syslog).
const COL = (p: number) => ` [col ${p}]`;
export const E5424 = {
  prival: 'expecting a priority value in the range 1-191 or equal to 0',
  pri: 'expecting a priority value within angle brackets',
  version: 'expecting a version value in the range 1-999',
  timestamp: 'expecting a RFC3339MICRO timestamp or a nil value',
  hostname: 'expecting an hostname (from 1 to max 255 US-ASCII characters) or a nil value',
  appname: 'expecting an app-name (from 1 to max 48 US-ASCII characters) or a nil value',
  procid: 'expecting a procid (from 1 to max 128 US-ASCII characters) or a nil value',
  msgid: 'expecting a msgid (from 1 to max 32 US-ASCII characters) or a nil value',
  structureddata:
    'expecting a structured data section containing one or more elements (`[id( key="value")*]+`) or a nil value',
  sdid: 'expecting a structured data element id (from 1 to max 32 US-ASCII characters; except `=`, ` `, `]`, and `"`',
  sdidDuplicated: 'duplicate structured data element id',
  sdparam:
    'expecting a structured data parameter (`key="value"`, both part from 1 to max 32 US-ASCII characters; key cannot contain `=`, ` `, `]`, and `"`, while value cannot contain `]`, backslash, and `"` unless escaped)',
  escape: 'expecting chars `]`, `"`, and `\\` to be escaped within param value',
  parse: 'parsing error',
};

export class SyslogError extends Error {}

const fail = (what: string, p: number): never => {
  throw new SyslogError(what + COL(p));
};

const isGraph = (c: number | undefined) => c !== undefined && c >= 0x21 && c <= 0x7e;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

/** `<prival>` at the start; returns the priority and the index after `>`. Shared with RFC 3164. */
export function parsePri(b: Buffer, prival: string, pri: string): [number, number] {
  if (b[0] !== 0x3c) fail(pri, 0);
  // Digits are taken while they can still make a value of 0..191 without a leading zero; the
  // first one that cannot (or anything but `>` after them) is where the parse fails.
  let p = 1;
  let digits = '';
  while (isDigit(b[p])) {
    const next = digits + String.fromCharCode(b[p]!);
    if (digits === '0' || Number(next) > 191) break;
    digits = next;
    p++;
  }
  if (digits === '' || b[p] !== 0x3e) fail(prival, p);
  return [Number(digits), p + 1];
}

/** A token of visible characters up to the next space, at most `max` long. */
function token(b: Buffer, p: number, max: number, what: string): [string, number] {
  const start = p;
  while (isGraph(b[p])) p++;
  if (p === start || p - start > max) fail(what, p === start ? p : start + max);
  return [b.toString('latin1', start, p), p];
}

function space(b: Buffer, p: number, what: string): number {
  if (b[p] !== 0x20) fail(what, p);
  return p + 1;
}

const TIMESTAMP =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,6}))?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)/;

/** An RFC 3339 time as Go's Format(RFC3339Nano) writes the parsed value back. */
export function rfc3339Nano(m: RegExpExecArray, fraction: string | undefined, zone: string): string {
  const frac = fraction ? fraction.replace(/0+$/, '') : '';
  const z = zone === 'Z' || zone === '+00:00' || zone === '-00:00' ? 'Z' : zone;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${frac ? `.${frac}` : ''}${z}`;
}

function checkDay(m: RegExpExecArray, p: number): void {
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) throw new SyslogError(`parsing time "${m[0]}": day out of range${COL(p)}`);
}

export function parseRfc5424(b: Buffer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const [priority, afterPri] = parsePri(b, E5424.prival, E5424.pri);
  let p = afterPri;
  const vStart = p;
  if (!(b[p]! >= 0x31 && b[p]! <= 0x39)) fail(E5424.version, p);
  p++;
  while (isDigit(b[p]) && p - vStart < 3) p++;
  if (isDigit(b[p])) fail(E5424.version, p);
  const version = Number(b.toString('latin1', vStart, p));
  p = space(b, p, E5424.parse);

  let timestamp: string | undefined;
  if (b[p] === 0x2d && b[p + 1] === 0x20) p++;
  else {
    const text = b.toString('latin1', p, Math.min(b.length, p + 40));
    const m = TIMESTAMP.exec(text);
    if (!m) fail(E5424.timestamp, p);
    checkDay(m!, p + m![0].length);
    timestamp = rfc3339Nano(m!, m![7], m![8]!);
    p += m![0].length;
  }
  p = space(b, p, E5424.timestamp);
  const [hostname, h] = token(b, p, 255, E5424.hostname);
  p = space(b, h, E5424.hostname);
  const [appname, a] = token(b, p, 48, E5424.appname);
  p = space(b, a, E5424.appname);
  const [procid, pr] = token(b, p, 128, E5424.procid);
  p = space(b, pr, E5424.procid);
  const [msgid, mi] = token(b, p, 32, E5424.msgid);
  p = space(b, mi, E5424.msgid);

  let structured: Record<string, Record<string, string>> | undefined;
  if (b[p] === 0x2d) p++;
  else if (b[p] === 0x5b) {
    structured = {};
    while (b[p] === 0x5b) p = parseElement(b, p + 1, structured);
  } else fail(E5424.structureddata, p);

  let message: string | undefined;
  if (p < b.length) {
    if (b[p] !== 0x20) fail(E5424.parse, p);
    message = b.toString('utf8', p + 1);
  }

  out.facility = priority >> 3;
  out.severity = priority & 7;
  out.priority = priority;
  out.version = version;
  if (timestamp !== undefined) out.timestamp = timestamp;
  if (hostname !== '-') out.hostname = hostname;
  if (appname !== '-') out.appname = appname;
  if (procid !== '-') out.procid = procid;
  if (msgid !== '-') out.msgid = msgid;
  if (structured !== undefined) out.structureddata = structured;
  if (message !== undefined && message !== '') out.message = message;
  return out;
}

const isSdName = (c: number | undefined) => isGraph(c) && c !== 0x3d && c !== 0x5d && c !== 0x22;

/** One `[id param="value"...]` element from after its `[`; returns the index after `]`. */
function parseElement(b: Buffer, p: number, into: Record<string, Record<string, string>>): number {
  const start = p;
  while (isSdName(b[p])) p++;
  if (p === start || p - start > 32) fail(E5424.sdid, p === start ? p : start + 32);
  const id = b.toString('utf8', start, p);
  if (Object.hasOwn(into, id)) fail(E5424.sdidDuplicated, p);
  const params: Record<string, string> = {};
  into[id] = params;
  while (b[p] === 0x20) {
    p++;
    const nameStart = p;
    while (isSdName(b[p])) p++;
    if (p === nameStart || p - nameStart > 32 || b[p] !== 0x3d) fail(E5424.sdparam, p);
    if (b[p + 1] !== 0x22) fail(E5424.sdparam, p + 1);
    const name = b.toString('utf8', nameStart, p);
    p += 2;
    const value: number[] = [];
    for (;;) {
      const c = b[p];
      if (c === undefined) fail(E5424.sdparam, p);
      if (c === 0x22) break;
      if (c === 0x5d) fail(E5424.escape, p);
      if (c === 0x5c) {
        const next = b[p + 1];
        if (next === 0x22 || next === 0x5d || next === 0x5c) {
          value.push(next);
          p += 2;
          continue;
        }
      }
      value.push(c!);
      p++;
    }
    params[name] = Buffer.from(value).toString('utf8');
    p++;
  }
  if (b[p] !== 0x5d) fail(b[p] === undefined ? E5424.structureddata : E5424.sdparam, p);
  return p + 1;
}
