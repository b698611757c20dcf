import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as fileIn } from '../../../src/components/inputs/file.js';
import { spec as httpServer } from '../../../src/components/inputs/http_server.js';
import { spec as inprocIn } from '../../../src/components/inputs/inproc.js';
import { spec as stdin } from '../../../src/components/inputs/stdin.js';
import { spec as drop } from '../../../src/components/outputs/drop.js';
import { spec as fileOut } from '../../../src/components/outputs/file.js';
import { spec as httpClient } from '../../../src/components/outputs/http_client.js';
import { spec as inprocOut } from '../../../src/components/outputs/inproc.js';
import { spec as reject } from '../../../src/components/outputs/reject.js';
import { spec as stdout } from '../../../src/components/outputs/stdout.js';
import { scanners } from '../../../src/components/scanners/index.js';
import type { ComponentSpec } from '../../../src/config/spec.js';
import { referenceProblems } from '../reference.js';

const specs = [
  ...scanners,
  fileIn,
  httpServer,
  inprocIn,
  stdin,
  drop,
  fileOut,
  httpClient,
  inprocOut,
  reject,
  stdout,
] as ComponentSpec<unknown, unknown>[];

describe('specs of inputs, outputs and scanners', () => {
  for (const spec of specs) {
    it(`${spec.kind} ${spec.name} declares exactly the reference fields and flags`, () => {
      assert.deepEqual(referenceProblems(spec), []);
    });
    it(`${spec.kind} ${spec.name} has a runnable example`, () => {
      assert.ok((spec.examples?.length ?? 0) > 0);
      assert.match(spec.examples?.[0]?.config ?? '', /^(input|output):|\n(input|output):/);
    });
  }
});
