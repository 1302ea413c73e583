// Preloaded into the bench server (`node --import`) by bench/netproxy/survivors.ts: V8's sampling heap
// profiler over the inspector, started and stopped by signals so that only the load window is sampled.
// SIGUSR1 starts sampling in the mode named by the file in PARAPET_HEAP_SAMPLER_DIR/mode ("all": every
// allocation, "survivors": only objects that outlived the young generation, i.e. live ones and those a
// full collection freed); SIGUSR2 stops it and writes the profile to <dir>/<mode>.heapprofile.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.PARAPET_HEAP_SAMPLER_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  const mode = () => readFileSync(join(dir, 'mode'), 'utf8').trim();
  let enabled = false;
  process.on('SIGUSR1', () => {
    const start = () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 2048,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: mode() === 'all',
      });
    if (enabled) start();
    else {
      enabled = true;
      session.post('HeapProfiler.enable', start);
    }
  });
  process.on('SIGUSR2', () => {
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (!err) writeFileSync(join(dir, `${mode()}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
