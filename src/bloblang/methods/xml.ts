// parse_xml (the reference's xml plugin method), in the same shape as the `xml` processor.
import { xmlToStructured } from '../../message/xml.js';
import type { Value } from '../library.js';
import { bytesToString } from '../value.js';
import { fail, method, p, targetBytes } from './support.js';

method('parse_xml', [p.bool('cast', { optional: true, default: false })], (t, a) => {
  try {
    return xmlToStructured(bytesToString(targetBytes(t)), a[0] === true) as Value;
  } catch (e) {
    throw fail(`parsing value as XML: ${(e as Error).message}`);
  }
});
