/**
 * Garbage per request from a server started with --trace-gc: the allocation rate between its collections
 * (heap size when a collection starts minus the size the previous one left, summed, over the time between
 * them) divided by the request rate carried. Load on a shared machine slows both rates alike, so the
 * quotient measures the code, not the machine.
 */
export interface GcFigures {
  /** Bytes allocated per request (all generations). */
  bytesPerRequest: number;
  scavenges: number;
  /** Full collections (Mark-Compact) in the window: what the old generation costs. */
  markCompacts: number;
  /** Heap size after the last collection of the window, MB (the largest of the isolates). */
  heapAfterMb: number;
  /**
   * Bytes per request that outlived the young generation: the growth of the heap left by each scavenge
   * over the one before it (a scavenge leaves the old generation plus the survivors), summed. This is what
   * fills the old generation and brings the full collections that a p99 sees.
   */
  promotedPerRequest: number;
}

const LINE =
  /^\[(\d+:0x[0-9a-f]+)\]\s+(\d+(?:\.\d+)?) ms: (Scavenge|Mark-Compact|Minor Mark-Compact|Mark-Compact \(reduce\))[^\d]*?(\d+(?:\.\d+)?) \((?:\d+(?:\.\d+)?)\) -> (\d+(?:\.\d+)?) \(/;

/**
 * Figures of the --trace-gc lines in `text` (the server's output during the load), at `requestsPerSecond`
 * carried by `isolates` processes together (cluster workers each trace their own heap; the busiest ones
 * are the workers, the primary barely allocates).
 */
export function gcFigures(text: string, requestsPerSecond: number, isolates = 1): GcFigures | undefined {
  const byIsolate = new Map<string, Array<{ at: number; kind: string; before: number; after: number }>>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const list = byIsolate.get(m[1] ?? '') ?? [];
    list.push({ at: Number(m[2]), kind: m[3] ?? '', before: Number(m[4]), after: Number(m[5]) });
    byIsolate.set(m[1] ?? '', list);
  }
  // Worker threads trace their own heaps too: the request-serving isolates have the most collections.
  const busiest = [...byIsolate.values()].sort((a, b) => b.length - a.length).slice(0, isolates);
  if (busiest.length < isolates || requestsPerSecond <= 0) return undefined;
  let bytesPerMs = 0;
  let scavenges = 0;
  let markCompacts = 0;
  let heapAfterMb = 0;
  let promotedBytesPerMs = 0;
  for (const events of busiest) {
    if (events.length < 3) return undefined;
    let allocatedMb = 0;
    let promotedMb = 0;
    for (let i = 1; i < events.length; i++) {
      allocatedMb += Math.max(0, (events[i]?.before ?? 0) - (events[i - 1]?.after ?? 0));
      // A full collection frees the old generation: only growth from scavenge to scavenge is promotion
      // (signed: the survivors' share goes up and down, and the trace's 0.1 MB rounding cancels out).
      if (events[i]?.kind === 'Scavenge' && events[i - 1]?.kind === 'Scavenge')
        promotedMb += (events[i]?.after ?? 0) - (events[i - 1]?.after ?? 0);
    }
    const ms = (events[events.length - 1]?.at ?? 0) - (events[0]?.at ?? 0);
    if (ms <= 0) return undefined;
    bytesPerMs += (allocatedMb * 1024 * 1024) / ms;
    promotedBytesPerMs += (promotedMb * 1024 * 1024) / ms;
    scavenges += events.filter((e) => e.kind === 'Scavenge').length;
    markCompacts += events.filter((e) => e.kind.startsWith('Mark-Compact')).length;
    heapAfterMb = Math.max(heapAfterMb, events[events.length - 1]?.after ?? 0);
  }
  return {
    bytesPerRequest: Math.round(bytesPerMs / (requestsPerSecond / 1000)),
    scavenges,
    markCompacts,
    heapAfterMb,
    promotedPerRequest: Math.round(promotedBytesPerMs / (requestsPerSecond / 1000)),
  };
}

/** "garbage 41.2 KB per request (12 scavenges, 0 full collections; heap 38 MB)" or why there is no figure. */
export function gcText(gc: GcFigures | undefined): string {
  return gc
    ? `garbage ${(gc.bytesPerRequest / 1024).toFixed(1)} KB per request, ${(gc.promotedPerRequest / 1024).toFixed(1)} KB of it promoted (${gc.scavenges} scavenges, ${gc.markCompacts} full collections; heap ${gc.heapAfterMb} MB)`
    : 'garbage: too few collections to measure';
}
