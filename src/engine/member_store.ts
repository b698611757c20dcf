// Where a `dynamic` output keeps the members posted to it over HTTP, when streams mode runs with
// a stream store: bound to one stream, keyed by the component's config path and the member id.
// Without a store there is none and members live as long as the stream instance.

export interface DynamicMemberStore {
  /** Members kept for the component at `path`: id → the body as posted. */
  stored(path: string): ReadonlyMap<string, string>;
  /** Keeps a member before it is installed; throws to refuse it. */
  put(path: string, id: string, body: string): Promise<void>;
  /** Forgets a member before it is removed; throws to refuse it. */
  remove(path: string, id: string): Promise<void>;
}
