import { nameModelLoaded, useNameModel } from './detectors/name-model.js';

// The learned name model (`detectEntities(text, { nameModel: true })`) is off by default, and its weights
// are 629 KB of source: they stay out of the engine's import graph (index.ts does not reach this module),
// so neither a server start nor the browser extension's bundles pay for them. A caller that wants the
// model awaits this once; the dynamic import lets a bundler that splits code keep the weights in a chunk
// of their own.
export async function loadNameModel(): Promise<void> {
  if (nameModelLoaded()) return;
  const { NAME_MODEL } = await import('./model/names-weights.js');
  useNameModel(NAME_MODEL);
}
