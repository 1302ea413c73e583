// The streamed-rehydration fuzz at a larger scale than the test suite runs it (2,000 cases per format there):
//   npm run fuzz:streams -- [cases per format, default 20000] [first seed, default 1]
// Prints, per format, the cases run and the failing seeds (replay one in the tests with STREAM_FUZZ_SEED=<seed>
// STREAM_FUZZ_CASES=1); exits 1 when any case failed.
import { chatCase, gatewayCase, netproxyCase } from '../test/support/stream-cases.js';
import { STREAM_FORMATS } from '../test/support/stream-formats.js';

const cases = Number(process.argv[2] ?? 20000);
const first = Number(process.argv[3] ?? 1);
let failed = 0;

async function run(
  name: string,
  one: (seed: number) => string | null | Promise<string | null>,
): Promise<void> {
  const started = performance.now();
  const failures: string[] = [];
  for (let seed = first; seed < first + cases; seed++) {
    const problem = await one(seed);
    if (problem) failures.push(`  seed ${seed}: ${problem.slice(0, 400)}`);
  }
  failed += failures.length;
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${name}: ${cases} cases (seeds ${first}..${first + cases - 1}), ${failures.length} failed, ${secs} s`,
  );
  for (const f of failures.slice(0, 10)) console.log(f);
}

for (const format of STREAM_FORMATS)
  await run(`network proxy, ${format.name}`, (seed) => netproxyCase(format, seed));
await run('provider proxy, OpenAI chunks', gatewayCase);
await run('protected chat', chatCase);
process.exit(failed > 0 ? 1 : 0);
