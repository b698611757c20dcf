import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from '../../src/http/router.js';

function routerWith(...paths: string[]): Router<string> {
  const router = new Router<string>();
  for (const path of paths) router.add(path, path);
  return router;
}

describe('Router', () => {
  it('matches exact paths only', () => {
    const router = routerWith('/streams');
    assert.equal(router.match('/streams')?.value, '/streams');
    assert.equal(router.match('/streams/'), undefined, 'a trailing slash is another path');
    assert.equal(router.match('/stream'), undefined);
    assert.equal(router.match('/streamsx'), undefined);
  });

  it('binds a placeholder to exactly one non-empty segment', () => {
    const router = routerWith('/streams/{id}', '/streams/{id}/stats');
    assert.deepEqual(router.match('/streams/foo'), { value: '/streams/{id}', params: { id: 'foo' } });
    assert.deepEqual(router.match('/streams/foo/stats'), {
      value: '/streams/{id}/stats',
      params: { id: 'foo' },
    });
    assert.equal(router.match('/streams/'), undefined, 'an empty segment is not an id');
    assert.equal(router.match('/streams/a/b'), undefined, 'a placeholder never spans a slash');
    assert.equal(router.match('/streams//stats'), undefined);
  });

  it('binds several placeholders', () => {
    const router = routerWith('/resources/{type}/{id}');
    assert.deepEqual(router.match('/resources/cache/foo')?.params, { type: 'cache', id: 'foo' });
  });

  it('prefers literal segments over placeholders, whatever the registration order', () => {
    const router = routerWith('/streams/{id}', '/streams/ready');
    assert.equal(router.match('/streams/ready')?.value, '/streams/ready');
    assert.equal(router.match('/streams/other')?.value, '/streams/{id}');
  });

  it('treats a registered path ending in / as a prefix, longest prefix first', () => {
    const router = routerWith('/static/', '/static/img/');
    assert.equal(router.match('/static/')?.value, '/static/');
    assert.equal(router.match('/static/a/b.css')?.value, '/static/');
    assert.equal(router.match('/static/img/x.png')?.value, '/static/img/');
    assert.equal(router.match('/static'), undefined);
  });

  it('prefers an exact path over a prefix that also covers it', () => {
    const router = routerWith('/foo/', '/foo/bar');
    assert.equal(router.match('/foo/bar')?.value, '/foo/bar');
    assert.equal(router.match('/foo/baz')?.value, '/foo/');
  });

  it('supports placeholders inside prefixes', () => {
    const router = routerWith('/{stream}/files/');
    assert.deepEqual(router.match('/s1/files/a/b'), { value: '/{stream}/files/', params: { stream: 's1' } });
    assert.equal(router.match('/s1/files'), undefined);
  });

  it('replaces the value of a path registered twice (last writer wins)', () => {
    const router = new Router<number>();
    router.add('/a', 1);
    router.add('/a', 2);
    router.add('/b/{x}', 1);
    router.add('/b/{x}', 2);
    assert.equal(router.match('/a')?.value, 2);
    assert.equal(router.match('/b/y')?.value, 2);
    assert.deepEqual(router.paths(), ['/a', '/b/{x}']);
  });

  it('removes exact, template and prefix paths', () => {
    const router = routerWith('/a', '/b/{x}', '/c/');
    assert.equal(router.remove('/a'), true);
    assert.equal(router.remove('/b/{x}'), true);
    assert.equal(router.remove('/c/'), true);
    assert.equal(router.remove('/c/'), false);
    assert.equal(router.match('/a'), undefined);
    assert.equal(router.match('/b/y'), undefined);
    assert.equal(router.match('/c/d'), undefined);
    assert.deepEqual(router.paths(), []);
  });
});
