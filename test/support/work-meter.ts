import { Session } from 'node:inspector/promises';

/**
 * A deterministic measure of the work an engine does on one input, for the linearity tests (issue #15).
 *
 * Wall or CPU time would flake on a shared two-core machine and say nothing exact about growth, and a step
 * counter ticked by hand in the engines would see only the loops someone remembered to instrument. This
 * meter counts two things, neither of which depends on the machine's load:
 *
 * - JavaScript blocks executed in the measured files: V8's precise block coverage (the inspector's
 *   `Profiler.startPreciseCoverage` with call counts) counts every function call and every entry into a
 *   loop body or branch, exactly. Every loop of the engines is counted without touching their code.
 * - characters examined by native string and regular-expression work, which block counts cannot see (the
 *   quadratic spots of the issue were a `lastIndexOf` and a regular expression run over a growing prefix):
 *   the built-ins that scan a string are wrapped while a measurement runs. A regular expression costs the
 *   characters from where its search starts to where its match ends (or the end of the text when it fails);
 *   every other wrapped call costs the length it walks.
 *
 * What it cannot see: backtracking inside one attempt of a regular expression at one position. That is
 * what `npm run bench:hostile` times at 1 MB.
 */
export interface WorkMeter {
  /** Work done by `fn`: executed blocks of the measured files plus characters scanned by built-ins. */
  measure(fn: () => unknown): Promise<number>;
  close(): Promise<void>;
}

let counting = false;
let scanned = 0;

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

function wrap(proto: object, name: string, cost: (self: unknown, args: unknown[], out: unknown) => number) {
  const original = (proto as Record<string, AnyFn>)[name]!;
  Object.defineProperty(proto, name, {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      const out = original.apply(this, args);
      if (counting) scanned += cost(this, args, out);
      return out;
    },
  });
}

const len = (x: unknown): number => (typeof x === 'string' || Array.isArray(x) ? x.length : 0);
const thisLength = (self: unknown) => len(self);
const num = (x: unknown, fallback: number): number => (typeof x === 'number' ? x : fallback);

let installed = false;

function installNativeCounters(): void {
  if (installed) return;
  installed = true;
  // Every regular-expression operation (match, matchAll, replace, split, test, search) goes through exec
  // once exec is not the built-in one, so this single wrapper sees them all.
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const s = String(input);
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const m = exec.call(this, s);
    if (counting) {
      if (m) scanned += m.index + m[0].length - (this.sticky ? m.index : from) + 1;
      else scanned += this.sticky ? 1 : Math.max(1, s.length - from);
    }
    return m;
  };
  const sp = String.prototype;
  wrap(sp, 'indexOf', (self, args, out) => {
    const from = num(args[1], 0);
    return (out as number) >= 0 ? (out as number) - from + len(args[0]) : len(self) - from;
  });
  wrap(sp, 'lastIndexOf', (self, args, out) => {
    const from = Math.min(num(args[1], len(self)), len(self));
    return (out as number) >= 0 ? from - (out as number) + 1 : from + 1;
  });
  wrap(sp, 'includes', thisLength);
  for (const name of ['split', 'replace', 'replaceAll', 'normalize', 'toLowerCase', 'toUpperCase', 'trim']) {
    wrap(sp, name, thisLength);
  }
  for (const name of ['trimStart', 'trimEnd', 'localeCompare']) wrap(sp, name, thisLength);
  for (const name of ['repeat', 'padStart', 'padEnd']) wrap(sp, name, (_s, _a, out) => len(out));
  const ap = Array.prototype;
  for (const name of ['join', 'indexOf', 'lastIndexOf', 'includes', 'reverse', 'fill'])
    wrap(ap, name, thisLength);
  for (const name of ['slice', 'concat', 'flat', 'splice']) wrap(ap, name, (_s, _a, out) => len(out));
  // A comparison sort does about n·log2(n) comparisons; the comparator's own blocks are counted as well.
  wrap(ap, 'sort', (self) => {
    const n = len(self);
    return n > 1 ? Math.ceil(n * Math.log2(n)) : 1;
  });
}

interface Range {
  count: number;
}
interface ScriptCoverage {
  url: string;
  functions: Array<{ ranges: Range[] }>;
}

/**
 * Starts block coverage. Call it before importing the measured modules: V8 instruments functions for block
 * counts when it compiles them.
 */
export async function createWorkMeter(pathFragment = '/src/engines/'): Promise<WorkMeter> {
  installNativeCounters();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const blocks = (result: ScriptCoverage[]): number => {
    let n = 0;
    for (const script of result) {
      if (!script.url.includes(pathFragment)) continue;
      for (const f of script.functions) for (const r of f.ranges) n += r.count;
    }
    return n;
  };
  return {
    async measure(fn) {
      // Taking coverage resets the counters.
      await session.post('Profiler.takePreciseCoverage');
      scanned = 0;
      counting = true;
      try {
        fn();
      } finally {
        counting = false;
      }
      const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
      return blocks(result) + scanned;
    },
    async close() {
      await session.post('Profiler.stopPreciseCoverage');
      await session.post('Profiler.disable');
      session.disconnect();
    },
  };
}
