export interface WorkLoopOptions {
  /** Does one round of work; returns how many items it handled (0 = nothing was due). */
  run: () => Promise<number>;
  /** Pause between rounds when idle; kick() cuts it short. */
  idleMs: number;
  /** Delay between a kick and the round it triggers, so one burst of events becomes one batch. */
  kickDelayMs?: number;
  /** After a kicked round that found nothing, look once more this much later (the kicker may not have committed yet). */
  recheckMs?: number;
  onError: (err: unknown) => void;
}

export interface WorkLoop {
  start(): void;
  /** Something became due: run soon instead of at the end of the idle pause. */
  kick(): void;
  /** Stops scheduling and waits for the round in flight to finish. */
  close(): Promise<void>;
}

/**
 * Runs `run` back to back while it finds work, then every idleMs. Only one round is ever in flight; the
 * timers are unref'd so a loop never keeps a process alive by itself.
 */
export function createWorkLoop(opts: WorkLoopOptions): WorkLoop {
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  // A kick can come from inside a producer's transaction, before its rows are visible: one quick re-check.
  let recheck = false;

  let timerAt = 0;

  // A round already due as soon as (or sooner than) asked stays as it is: the delivery pools kick at every
  // send that ends, and re-arming the timer at each kick would put the round off for as long as sends keep
  // ending less than kickDelayMs apart.
  const schedule = (ms: number) => {
    if (stopped) return;
    const at = Date.now() + ms;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  function tick() {
    timer = null;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      let handled = 0;
      try {
        handled = await opts.run();
      } catch (err) {
        opts.onError(err);
      }
      running = null;
      const busy = handled > 0 || again;
      again = false;
      if (!busy && recheck) {
        recheck = false;
        schedule(opts.recheckMs ?? 25);
        return;
      }
      schedule(busy ? 0 : opts.idleMs);
    })();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    kick() {
      if (stopped) return;
      recheck = true;
      if (running) {
        again = true;
        return;
      }
      schedule(opts.kickDelayMs ?? 2);
    },
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await running;
    },
  };
}
