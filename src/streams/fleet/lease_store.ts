// What a fleet needs from its shared store (issue 23): nodes that say they are alive, and one lease
// per stream naming the node that may run it. Leases expire unless renewed; the store's own clock
// (PostgreSQL's now()) or compare-and-set (NATS KV revisions) decides who holds one, never a
// node's opinion. `onChange` is the store's push channel (NOTIFY, KV watch): a lease released or a
// node joining wakes the others at once instead of at their next tick.

export interface FleetNode {
  id: string;
  /** `host:port` of the node's HTTP server, where other nodes forward requests. */
  address: string;
}

export interface LeaseStore {
  readonly name: string;
  open(): Promise<void>;
  /** Says this node is alive until `ttlMs` from now and renews every lease it holds; returns those held. */
  heartbeat(node: FleetNode, ttlMs: number): Promise<Set<string>>;
  /** The nodes whose heartbeat has not expired. */
  nodes(): Promise<FleetNode[]>;
  /** Stream id → node id of every lease that has not expired. */
  leases(): Promise<Map<string, string>>;
  /** Takes the lease when it is free or expired (or already this node's); true when held. */
  acquire(streamId: string, nodeId: string, ttlMs: number): Promise<boolean>;
  /** Gives a lease up (only this node's). */
  release(streamId: string, nodeId: string): Promise<void>;
  /** Removes this node's heartbeat and leases (a clean stop). */
  leave(nodeId: string): Promise<void>;
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

/** Who is in the fleet and who runs what, as one node sees it. */
export interface FleetView {
  readonly node: FleetNode;
  /** Reads the live nodes and leases from the store now. */
  refresh(): Promise<{ nodes: FleetNode[]; owners: Map<string, string> }>;
  /** The last read, when the store cannot be read now. */
  view(): { nodes: FleetNode[]; owners: Map<string, string> };
}
