import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quoteAscii, renderLabels } from '../../src/metrics/labels.js';
import { LogHistogram } from '../../src/metrics/log-histogram.js';

describe('renderLabels', () => {
  it('sorts names and quotes values like Go', () => {
    assert.equal(
      renderLabels({ stream: 'foo', path: 'root.input', label: '' }),
      '{label="",path="root.input",stream="foo"}',
    );
    assert.equal(renderLabels({}), '');
  });

  it('escapes like strconv.QuoteToASCII', () => {
    assert.equal(quoteAscii('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(quoteAscii('\n\t\x01\x7f'), '"\\n\\t\\x01\\x7f"');
    assert.equal(quoteAscii('é😀'), '"\\u00e9\\U0001f600"');
  });
});

describe('LogHistogram', () => {
  it('is exact for a single value and zero when empty', () => {
    const h = new LogHistogram();
    assert.equal(h.quantile(0.5), 0);
    h.observe(12345);
    assert.equal(h.quantile(0.5), 12345);
    assert.equal(h.quantile(0.99), 12345);
  });

  it('stays within 5% across a wide range and keeps count and sum', () => {
    const h = new LogHistogram();
    const values: number[] = [];
    for (let i = 0; i < 10_000; i++) values.push(Math.round(10 ** (2 + Math.random() * 7)));
    for (const v of values) h.observe(v);
    values.sort((a, b) => a - b);
    for (const q of [0.5, 0.9, 0.99]) {
      const exact = values[Math.ceil(q * values.length) - 1];
      const estimate = h.quantile(q);
      assert.ok(Math.abs(estimate - exact) / exact < 0.05, `q${q}: ${estimate} vs ${exact}`);
    }
    assert.equal(h.count, 10_000);
    assert.equal(
      h.sum,
      values.reduce((a, b) => a + b, 0),
    );
  });

  it('lumps values below one nanosecond together', () => {
    const h = new LogHistogram();
    h.observe(0);
    h.observe(0.5);
    h.observe(100);
    assert.ok(h.quantile(0.5) < 1);
    assert.equal(h.quantile(0.99), 100);
  });
});
