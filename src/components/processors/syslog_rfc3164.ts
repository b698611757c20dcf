// RFC 3164 (BSD) syslog lines to the reference's parse_log document, with the errors of the
// reference's parser (go-syslog): `<pri>Mmm dd hh:mm:ss host tag[pid]: message`.
import { zoneOffsetMinutes } from '../../message/value_format.js';
import { parsePri, rfc3339Nano, SyslogError } from './syslog_rfc5424.js';

const E3164 = {
  prival: 'expecting a priority value in the range 1-191 or equal to 0',
  pri: 'expecting a priority value within angle brackets',
  timestamp: 'expecting a Stamp timestamp',
  rfc3339: 'expecting a Stamp or a RFC3339 timestamp',
  hostname: 'expecting an hostname (from 1 to max 255 US-ASCII characters)',
  parse: 'parsing error',
};

const fail = (what: string, p: number): never => {
  throw new SyslogError(`${what} [col ${p}]`);
};

export interface Rfc3164Options {
  allowRfc3339: boolean;
  /** The year given to Stamp timestamps (0 when none is set). */
  year: number;
  /** The zone the timestamp is shown in (the time itself is read as UTC), or '' for UTC. */
  zone: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const STAMP =
  /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( [1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)/;
const RFC3339 =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)/;
const TAGGED = /^([\x21-\x39\x3b-\x5a\x5c-\x7e]{1,32})(?:\[([\x20-\x5c\x5e-\x7e]*)\])?: ([\s\S]+)$/;
const VISIBLE = /^[\x20-\x7e\x80-\uffff]+$/;

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** Go's Format(RFC3339Nano) of a UTC instant shown in `zone`. */
function formatIn(epochMs: number, zone: string): string {
  const offset = zone === '' ? 0 : zoneOffsetMinutes(zone, epochMs);
  const d = new Date(epochMs + offset * 60000);
  const year = d.getUTCFullYear();
  const date = `${year < 0 ? '-' : ''}${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const z =
    offset === 0
      ? 'Z'
      : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${date}T${time}${z}`;
}

export function parseRfc3164(b: Buffer, options: Rfc3164Options): Record<string, unknown> {
  const [priority, afterPri] = parsePri(b, E3164.prival, E3164.pri);
  let p = afterPri;
  const head = b.toString('latin1', p, Math.min(b.length, p + 32));
  let timestamp: string;
  const stamp = STAMP.exec(head);
  if (stamp) {
    const d = new Date(0);
    d.setUTCFullYear(options.year, MONTHS.indexOf(stamp[1]!), Number(stamp[2]!.trim()));
    d.setUTCHours(Number(stamp[3]), Number(stamp[4]), Number(stamp[5]), 0);
    timestamp = formatIn(d.getTime(), options.zone);
    p += stamp[0].length;
  } else {
    const rfc = options.allowRfc3339 ? RFC3339.exec(head) : null;
    if (!rfc) return fail(options.allowRfc3339 ? E3164.rfc3339 : E3164.timestamp, p);
    timestamp = rfc3339Nano(rfc, undefined, rfc[7]!);
    p += rfc[0].length;
  }
  if (b[p] !== 0x20) fail(E3164.parse, p);
  p++;
  const hostStart = p;
  while (b[p]! >= 0x21 && b[p]! <= 0x7e) p++;
  if (p === hostStart || p - hostStart > 255) fail(E3164.hostname, p);
  const hostname = b.toString('latin1', hostStart, p);
  if (b[p] !== 0x20) fail(E3164.parse, p);
  p++;
  const rest = b.toString('utf8', p);
  if (!VISIBLE.test(rest)) fail(E3164.parse, rest === '' ? p : p + firstInvisible(rest));

  const out: Record<string, unknown> = {
    facility: priority >> 3,
    severity: priority & 7,
    priority,
    timestamp,
  };
  if (hostname !== '-') out.hostname = hostname;
  const tagged = TAGGED.exec(rest);
  if (tagged) {
    if (tagged[1] !== '-') out.appname = tagged[1];
    if (tagged[2] !== undefined && tagged[2] !== '' && tagged[2] !== '-') out.procid = tagged[2];
    out.message = tagged[3];
  } else out.message = rest;
  return out;
}

function firstInvisible(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return Buffer.byteLength(text.slice(0, i));
  }
  return 0;
}
