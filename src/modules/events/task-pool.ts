/**
 * The work a delivery worker has in flight (webhook sends, SIEM drains), as slots. Each task settles on its
 * own: its slot frees the moment it ends, not when the slowest of a batch ends, and `onFree` tells the
 * worker loop to fill it with the next due work.
 */
export interface TaskPoolOptions {
  /** Slots in this process. */
  capacity: number;
  /**
   * Claims up to `free` due items and starts each with `start`; returns how many it started (0: nothing
   * more is due that may be taken now).
   */
  claim: (free: number, start: (task: () => Promise<unknown>) => void) => Promise<number>;
  onFree?: (() => void) | undefined;
  /** A task that threw (a task handles its own delivery failures; this is the database failing). */
  onError?: ((err: unknown) => void) | undefined;
}

export interface TaskPool {
  /** Tasks in flight. */
  readonly size: number;
  /** Claims work into the free slots and returns how many tasks it started, without waiting for them. */
  fill(): Promise<number>;
  /**
   * Fills and waits for every task, round after round until nothing is due or `maxRounds` rounds were
   * made; returns how many tasks were started. Tests call it instead of waiting for the loop.
   */
  runDue(maxRounds?: number): Promise<number>;
  /** Takes no more work and waits for the tasks in flight (stopping a worker). */
  close(): Promise<void>;
}

export function createTaskPool(opts: TaskPoolOptions): TaskPool {
  const running = new Set<Promise<void>>();
  // One claim at a time per process: two concurrent fills would both see the same free slots.
  let filling: Promise<number> | null = null;
  let closing = false;

  const start = (task: () => Promise<unknown>) => {
    const p: Promise<void> = task()
      .then(
        () => undefined,
        (err: unknown) => opts.onError?.(err),
      )
      .finally(() => {
        running.delete(p);
        opts.onFree?.();
      });
    running.add(p);
  };

  async function claimIntoFreeSlots(): Promise<number> {
    let started = 0;
    while (!closing) {
      const free = opts.capacity - running.size;
      if (free <= 0) break;
      const n = await opts.claim(free, start);
      if (n === 0) break;
      started += n;
    }
    return started;
  }

  const idle = async () => {
    while (running.size > 0) await Promise.all([...running]);
  };

  function fill(): Promise<number> {
    if (!filling) filling = claimIntoFreeSlots().finally(() => (filling = null));
    return filling;
  }

  return {
    get size() {
      return running.size;
    },
    fill,
    async runDue(maxRounds = 10) {
      let done = 0;
      for (let round = 0; round < maxRounds; round++) {
        const n = await fill();
        // Tasks already in flight (the loop's) may hold the slots: once they end, there may be room.
        const busy = running.size > 0;
        await idle();
        done += n;
        if (n === 0 && !busy) break;
      }
      return done;
    },
    async close() {
      closing = true;
      if (filling) await filling;
      await idle();
    },
  };
}
