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
  /** Heap size after the last collection of the window, MB. */
  heapAfterMb: number;
}

const LINE =
  /^\[(\d+:0x[0-9a-f]+)\]\s+(\d+(?:\.\d+)?) ms: (Scavenge|Mark-Compact|Minor Mark-Compact|Mark-Compact \(reduce\))[^\d]*?(\d+(?:\.\d+)?) \((?:\d+(?:\.\d+)?)\) -> (\d+(?:\.\d+)?) \(/;

/** Figures of the --trace-gc lines in `text` (the server's output during the load), at `requestsPerSecond`. */
export function gcFigures(text: string, requestsPerSecond: number): GcFigures | undefined {
  const byIsolate = new Map<string, Array<{ at: number; kind: string; before: number; after: number }>>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const list = byIsolate.get(m[1] ?? '') ?? [];
    list.push({ at: Number(m[2]), kind: m[3] ?? '', before: Number(m[4]), after: Number(m[5]) });
    byIsolate.set(m[1] ?? '', list);
  }
  // Worker threads trace their own heaps: the server's main thread is the isolate with the most collections.
  const events = [...byIsolate.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  if (events.length < 3 || requestsPerSecond <= 0) return undefined;
  let allocatedMb = 0;
  for (let i = 1; i < events.length; i++)
    allocatedMb += Math.max(0, (events[i]?.before ?? 0) - (events[i - 1]?.after ?? 0));
  const ms = (events[events.length - 1]?.at ?? 0) - (events[0]?.at ?? 0);
  if (ms <= 0) return undefined;
  const bytesPerMs = (allocatedMb * 1024 * 1024) / ms;
  return {
    bytesPerRequest: Math.round(bytesPerMs / (requestsPerSecond / 1000)),
    scavenges: events.filter((e) => e.kind === 'Scavenge').length,
    markCompacts: events.filter((e) => e.kind.startsWith('Mark-Compact')).length,
    heapAfterMb: events[events.length - 1]?.after ?? 0,
  };
}
