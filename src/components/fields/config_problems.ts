// A component's `lint` hook also guards its build: paths that build without linting (direct
// builds in tests and embedding code, members added to a dynamic broker) fail the same way.
import { ConfigError } from '../../engine/errors.js';

/**
 * Throws the first of a lint hook's messages as a ConfigError, after `prefix` (e.g. `kafka: `,
 * naming the component); nothing when there are none.
 */
export function refuseProblems(problems: readonly string[], prefix = ''): void {
  const first = problems[0];
  if (first !== undefined) throw new ConfigError(`${prefix}${first}`);
}
