// The store a request's sync response is left in travels with the request's messages: derived
// messages answer to the same request, a copy made by a processor does not by itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attachResponseStore,
  ResponseStore,
  responseStoreOf,
} from '../../src/components/sync_response_store.js';
import { inheritResponseStore } from '../../src/engine/inherit_response_store.js';
import { Message } from '../../src/message/message.js';

describe('sync response store', () => {
  it('is found from the attached messages and from those derived from them', () => {
    const store = new ResponseStore();
    const read = [new Message('a'), new Message('b')];
    attachResponseStore(read, store);
    assert.equal(responseStoreOf(read[1]!), store);
    const derived = [new Message('x'), read[0]!.copy()];
    assert.equal(responseStoreOf(derived[1]!), undefined, 'a copy carried the store by itself');
    inheritResponseStore(read, derived);
    assert.equal(responseStoreOf(derived[0]!), store);
    assert.equal(responseStoreOf(derived[1]!), store);
  });

  it('leaves a message that answers to another request alone', () => {
    const mine = new ResponseStore();
    const other = new ResponseStore();
    const read = [new Message('a')];
    attachResponseStore(read, mine);
    const joined = [new Message('b')];
    attachResponseStore(joined, other);
    inheritResponseStore(read, joined);
    assert.equal(responseStoreOf(joined[0]!), other);
    inheritResponseStore([new Message('no request')], joined);
    inheritResponseStore([], joined);
    assert.equal(responseStoreOf(joined[0]!), other);
  });

  it('gives back what was added, in order', () => {
    const store = new ResponseStore();
    assert.deepEqual(store.messages(), []);
    const one = [new Message('1')];
    store.add(one);
    assert.equal(store.messages(), one, 'a single batch is not copied');
    store.add([new Message('2'), new Message('3')]);
    assert.deepEqual(
      store.messages().map((m) => m.text()),
      ['1', '2', '3'],
    );
  });
});
