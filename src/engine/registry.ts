// Component name -> spec, per kind. Built once from the component lists; never mutated after.
import type { AnyComponentSpec, ComponentKind, ComponentSpec } from '../config/spec.js';

export class Registry {
  private readonly byKind = new Map<ComponentKind, Map<string, ComponentSpec>>();

  constructor(specs: Iterable<AnyComponentSpec>) {
    for (const spec of specs) {
      let named = this.byKind.get(spec.kind);
      if (!named) {
        named = new Map();
        this.byKind.set(spec.kind, named);
      }
      if (named.has(spec.name)) throw new Error(`${spec.kind} ${spec.name} is registered twice`);
      named.set(spec.name, spec);
    }
  }

  get(kind: ComponentKind, name: string): ComponentSpec | undefined {
    return this.byKind.get(kind)?.get(name);
  }

  has(kind: ComponentKind, name: string): boolean {
    return this.byKind.get(kind)?.has(name) ?? false;
  }

  /** Specs of one kind (or all), sorted by name. */
  list(kind?: ComponentKind): ComponentSpec[] {
    const kinds = kind ? [kind] : [...this.byKind.keys()];
    return kinds
      .flatMap((k) => [...(this.byKind.get(k)?.values() ?? [])])
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
  }
}
