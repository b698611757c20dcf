// Path → value routing with the reference's rules: exact paths, `{name}` placeholders for one non-empty
// segment, and registered paths ending in `/` matching as prefixes. Last registration of a path wins.

export interface RouteMatch<T> {
  value: T;
  /** Placeholder name → the segment it matched. */
  params: Record<string, string>;
}

interface PatternRoute<T> {
  path: string;
  /** Literal segment text, or null for a placeholder. */
  literals: (string | null)[];
  names: (string | null)[];
  /** Registration order, so equally specific patterns resolve to the newest. */
  seq: number;
  value: T;
}

const PLACEHOLDER = /^\{([^{}/]+)\}$/;

export class Router<T> {
  /** Paths without placeholders that are not prefixes: one Map lookup. */
  private readonly exact = new Map<string, T>();
  /** Placeholder paths grouped by segment count, most specific first. */
  private readonly templates = new Map<number, PatternRoute<T>[]>();
  /** Paths ending in `/`, longest first so the most specific prefix answers. */
  private prefixes: PatternRoute<T>[] = [];
  private readonly all = new Map<string, T>();
  private seq = 0;

  add(path: string, value: T): void {
    this.remove(path);
    this.all.set(path, value);
    const isPrefix = path.endsWith('/');
    if (!isPrefix && !path.includes('{')) {
      this.exact.set(path, value);
      return;
    }
    const route = compile(path, value, this.seq++);
    if (isPrefix) {
      this.prefixes.push(route);
      this.prefixes.sort((a, b) => b.path.length - a.path.length || b.seq - a.seq);
      return;
    }
    const depth = route.literals.length;
    const list = this.templates.get(depth) ?? [];
    list.push(route);
    list.sort(bySpecificity);
    this.templates.set(depth, list);
  }

  /** Removes one registered path; returns whether it was there. */
  remove(path: string): boolean {
    if (!this.all.delete(path)) return false;
    if (this.exact.delete(path)) return true;
    this.prefixes = this.prefixes.filter((r) => r.path !== path);
    for (const [depth, list] of this.templates) {
      const kept = list.filter((r) => r.path !== path);
      if (kept.length === 0) this.templates.delete(depth);
      else this.templates.set(depth, kept);
    }
    return true;
  }

  /** Registered paths, in registration order. */
  paths(): string[] {
    return [...this.all.keys()];
  }

  match(path: string): RouteMatch<T> | undefined {
    const exact = this.exact.get(path);
    if (exact !== undefined) return { value: exact, params: {} };
    if (this.templates.size > 0) {
      const segments = path.split('/');
      const candidates = this.templates.get(segments.length);
      if (candidates) {
        for (const route of candidates) {
          const params = matchSegments(route, segments, segments.length);
          if (params) return { value: route.value, params };
        }
      }
    }
    for (const route of this.prefixes) {
      const params = matchPrefix(route, path);
      if (params) return { value: route.value, params };
    }
    return undefined;
  }
}

function compile<T>(path: string, value: T, seq: number): PatternRoute<T> {
  // A prefix's trailing empty segment is not part of what must match.
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  const literals: (string | null)[] = [];
  const names: (string | null)[] = [];
  for (const segment of segments) {
    const placeholder = PLACEHOLDER.exec(segment);
    literals.push(placeholder ? null : segment);
    names.push(placeholder ? placeholder[1] : null);
  }
  return { path, literals, names, seq, value };
}

/** Literal segments beat placeholders at the first position they differ; then the newest wins. */
function bySpecificity<T>(a: PatternRoute<T>, b: PatternRoute<T>): number {
  for (let i = 0; i < a.literals.length; i++) {
    const aLiteral = a.literals[i] !== null;
    const bLiteral = b.literals[i] !== null;
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return b.seq - a.seq;
}

function matchSegments<T>(
  route: PatternRoute<T>,
  segments: string[],
  count: number,
): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < count; i++) {
    const literal = route.literals[i];
    const segment = segments[i];
    if (literal === null) {
      if (segment === '') return undefined;
      params ??= {};
      params[route.names[i] as string] = segment;
    } else if (literal !== segment) {
      return undefined;
    }
  }
  return params ?? {};
}

function matchPrefix<T>(route: PatternRoute<T>, path: string): Record<string, string> | undefined {
  if (!route.path.includes('{')) return path.startsWith(route.path) ? {} : undefined;
  // A prefix with placeholders: its segments must match the path's leading ones, and a `/` must follow.
  const segments = path.split('/');
  const count = route.literals.length;
  if (segments.length <= count) return undefined;
  return matchSegments(route, segments, count);
}
