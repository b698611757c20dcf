// Go-style durations for component fields; the parser lives with the field builders.
export { durationMs } from '../../config/spec.js';
