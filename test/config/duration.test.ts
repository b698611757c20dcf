import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatDuration,
  parseDurationMs,
  parseDurationNs,
  tryParseDurationMs,
} from '../../src/config/duration.js';

describe('Go ParseDuration', () => {
  it('parses units, fractions, sums and signs', () => {
    assert.equal(parseDurationMs('300ms'), 300);
    assert.equal(parseDurationMs('1.5h'), 5_400_000);
    assert.equal(parseDurationMs('2h45m'), 9_900_000);
    assert.equal(parseDurationMs('.5s'), 500);
    assert.equal(parseDurationMs('-1m'), -60_000);
    assert.equal(parseDurationMs('+5s'), 5000);
    assert.equal(parseDurationNs('1ns'), 1);
    assert.equal(parseDurationNs('1.5us'), 1500);
    assert.equal(parseDurationNs('2µs'), 2000);
    assert.equal(parseDurationNs('3μs'), 3000);
    assert.equal(parseDurationMs('1.5µs'), 0.0015);
    assert.equal(parseDurationMs('0'), 0);
    assert.equal(parseDurationMs('0s'), 0);
  });

  it('rejects what Go rejects, with its messages', () => {
    assert.throws(() => parseDurationMs(''), /time: invalid duration ""/);
    assert.throws(() => parseDurationMs('5'), /time: missing unit in duration "5"/);
    assert.throws(() => parseDurationMs('5x'), /time: unknown unit "x" in duration "5x"/);
    assert.throws(() => parseDurationMs('.s'), /time: invalid duration/);
    assert.throws(() => parseDurationMs('1 s'), /unknown unit " s"/);
    assert.throws(() => parseDurationMs('notaduration'), /time: invalid duration/);
    assert.throws(() => parseDurationMs('9999999999h'), /time: invalid duration/);
    assert.equal(tryParseDurationMs('nope'), undefined);
  });
});

describe('Go Duration.String', () => {
  const cases: [number | bigint, string][] = [
    [0, '0s'],
    [999, '999ns'],
    [1500, '1.5µs'],
    [1_234_567, '1.234567ms'],
    [1e9, '1s'],
    [1.5e9, '1.5s'],
    [7_223_545_951, '7.223545951s'],
    [60e9, '1m0s'],
    [90e9, '1m30s'],
    [3600e9, '1h0m0s'],
    [3661.5e9, '1h1m1.5s'],
    [259_380.5e9, '72h3m0.5s'],
    [360_000e9, '100h0m0s'],
    [-1.5e9, '-1.5s'],
    [(1n << 63n) - 1n, '2562047h47m16.854775807s'],
  ];
  for (const [ns, text] of cases) {
    it(`${ns} ns -> ${text}`, () => assert.equal(formatDuration(ns), text));
  }
});
