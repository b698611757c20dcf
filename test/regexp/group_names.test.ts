// Groups that share a name, as Go's regexp accepts them (src/regexp/group_names.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';
import { renameRepeatedGroups } from '../../src/regexp/group_names.js';
import { compileLinearOnly, compilePattern } from '../../src/regexp/pattern.js';

describe('repeated group names', () => {
  it('compile, and name each group as written (SubexpNames lists the name twice)', () => {
    for (const compile of [compilePattern, compileLinearOnly]) {
      const pattern = compile('(?P<x>a)|(?P<x>b)(?<y>c)');
      assert.deepEqual(pattern.names, ['', 'x', 'x', 'y']);
      assert.deepEqual(pattern.find('bc')?.groups, ['bc', undefined, 'b', 'c']);
      assert.equal(pattern.source, '(?P<x>a)|(?P<x>b)(?<y>c)');
    }
  });

  it('rename only real groups: not escaped parentheses, classes or \\Q...\\E text', () => {
    assert.equal(renameRepeatedGroups('(?P<a>x)(?P<b>y)'), undefined);
    assert.equal(renameRepeatedGroups('\\(?P<x>a\\)(?P<x>b)'), undefined);
    assert.equal(renameRepeatedGroups('[(?P<x>)](?P<x>b)'), undefined);
    assert.equal(renameRepeatedGroups('[]()?P<x>](?P<x>b)'), undefined);
    assert.equal(renameRepeatedGroups('\\Q(?P<x>\\E(?P<x>b)'), undefined);
    const renamed = renameRepeatedGroups('(?P<x>a)[[:alpha:]](?P<x>b)(?P<x_2>c)');
    assert.equal(renamed?.source, '(?P<x>a)[[:alpha:]](?P<x_3>b)(?P<x_2>c)');
    assert.deepEqual([...(renamed?.written ?? [])], [['x_3', 'x']]);
  });

  it('re_find_object keeps the last group of a name, as the reference does', () => {
    const mapping = parseMapping('root = this.s.re_find_object("(?P<x>a)|(?P<x>b)")');
    const out = mapping.apply([new Message('{"s":"b"}')], 0);
    assert.deepEqual(out?.structured(), { '0': 'b', x: 'b' });
  });
});
