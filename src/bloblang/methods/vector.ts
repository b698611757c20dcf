// `vector`: an array of numbers as a vector for SQL vector columns (pgvector). The reference
// returns a driver value that becomes a pgvector; here it is pgvector's text form `[1,2.5,3]`,
// which PostgreSQL casts into a vector column, with each element rounded to float32.
import { JsonNumber, type Value } from '../library.js';
import { TypeMismatchError } from '../value.js';
import { fail, simpleMethod } from './support.js';

/** The shortest decimal that reads back as the same float32, in Go's 'f' format. */
export function float32Text(n: number): string {
  const f = Math.fround(n);
  if (!Number.isFinite(f)) return String(f);
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return fixed(s);
  }
  return fixed(f);
}

function fixed(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Exponent form: write it out in full, as Go's 'f' format does.
  const [mant, exp] = s.split(/e/i) as [string, string];
  const e = Number(exp);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const point = mant.replace('-', '').indexOf('.');
  const intLen = (point < 0 ? mant.replace('-', '').length : point) + e;
  let out: string;
  if (intLen <= 0) out = `0.${'0'.repeat(-intLen)}${digits}`;
  else if (intLen >= digits.length) out = digits + '0'.repeat(intLen - digits.length);
  else out = `${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  return neg ? `-${out}` : out;
}

simpleMethod('vector', (v: Value) => {
  if (!Array.isArray(v)) throw new TypeMismatchError(['array'], v);
  const parts = v.map((e, i) => {
    let n: number;
    if (typeof e === 'number') n = e;
    else if (typeof e === 'bigint') n = Number(e);
    else if (e instanceof JsonNumber) n = e.toNumber();
    else
      throw fail(
        `could not convert value at index ${i} to float32: ${new TypeMismatchError(['number'], e).message}`,
      );
    return float32Text(n);
  });
  return `[${parts.join(',')}]`;
});
