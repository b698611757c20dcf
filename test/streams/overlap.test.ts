// Which updates may start the new instance beside the running one (src/streams/overlap.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canOverlap } from '../../src/streams/overlap.js';

const drop = { drop: {} };

describe('canOverlap', () => {
  it('lets websocket clients (input and output) run side by side for a moment', () => {
    const reader = { input: { websocket: { url: 'ws://127.0.0.1:1/a' } }, output: drop };
    const writer = {
      input: { generate: { mapping: 'root = 1' } },
      output: { websocket: { url: 'ws://h/a' } },
    };
    assert.equal(canOverlap(reader, reader), true);
    assert.equal(canOverlap(writer, writer), true);
  });

  it('refuses what owns an address or a name, however deep and however written', () => {
    const server = { input: { http_server: { address: '127.0.0.1:1' } }, output: drop };
    const nested = {
      input: { broker: { inputs: [{ type: 'socket_server', socket_server: {} }] } },
      output: drop,
    };
    const dynamic = { input: { generate: {} }, output: { dynamic: { outputs: {} } } };
    const plain = { input: { generate: {} }, output: drop };
    for (const exclusive of [server, nested, dynamic]) {
      assert.equal(canOverlap(plain, exclusive), false);
      assert.equal(canOverlap(exclusive, plain), false);
    }
    assert.equal(canOverlap(plain, plain), true);
  });
});
