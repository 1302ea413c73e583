// Paths into parsed JSON events, for the streamed rehydration of delta fields (the network proxy's
// DeltaRehydrator and the extension's in-page SSE rehydration): where a delta's text sits, and a copy of
// an event that carries only the text held back for one field.

export type JsonPath = ReadonlyArray<string | number>;

export function getAt(root: unknown, path: JsonPath): unknown {
  let v = root as Record<string | number, unknown> | undefined;
  for (const p of path) v = v?.[p] as Record<string | number, unknown> | undefined;
  return v;
}

export function setAt(root: unknown, path: JsonPath, value: string): void {
  let v = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) v = v[path[i]!] as Record<string | number, unknown>;
  v[path[path.length - 1]!] = value;
}

/**
 * A copy of `template` carrying `text` at `path`, each array on the path cut down to the entry the path
 * goes through: the other entries (another choice or candidate, the parts before it) went out already.
 */
export function copyWithOnly(template: object, path: JsonPath, text: string): Record<string, unknown> {
  const copy = structuredClone(template) as Record<string, unknown>;
  const at = [...path];
  let v: unknown = copy;
  for (let i = 0; i < at.length - 1; i++) {
    const step = at[i]!;
    if (Array.isArray(v) && typeof step === 'number') {
      v.splice(0, v.length, v[step]);
      at[i] = 0;
    }
    v = (v as Record<string | number, unknown>)[at[i]!];
  }
  setAt(copy, at, text);
  return copy;
}
