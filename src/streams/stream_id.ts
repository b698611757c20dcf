// A stream or resource id from a request: refused with a 400 naming the problem (the rule itself
// is config/stream_id.ts).
import { idProblem } from '../config/stream_id.js';
import { BadRequestError } from './errors.js';

export function assertValidId(id: string, what = 'stream'): void {
  const problem = idProblem(id);
  if (problem) throw new BadRequestError(`invalid ${what} id ${JSON.stringify(id.slice(0, 64))}: ${problem}`);
}
