// User regular expressions: RE2 syntax, Go semantics, linear-time matching (see pattern.ts).

export { expandTemplate } from './expand.js';
export {
  compileLinearOnly,
  compilePattern,
  type Match,
  Pattern,
  PatternSyntaxError,
  patternProblem,
} from './pattern.js';
