// @grpc/grpc-js is loaded when an otlp_grpc input or output first connects, not at every start of
// nekton (~19 ms of a ~180 ms start, for configs that never use it).

import { createRequire } from 'node:module';
import type * as Grpc from '@grpc/grpc-js';

const load = createRequire(import.meta.url);
let grpcModule: typeof Grpc | undefined;

export const grpcNow = (): typeof Grpc => (grpcModule ??= load('@grpc/grpc-js') as typeof Grpc);
