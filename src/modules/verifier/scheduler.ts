/** How often the scheduler looks for sources whose refresh interval has passed. */
export const SCHEDULER_TICK_MS = 60_000;

export interface Scheduler {
  stop(): void;
}

/**
 * Runs `tick` every `everyMs` in this process (daily and weekly refreshes). Due times come from the
 * service's clock, so tests advance a manual clock and call tick themselves instead of waiting.
 */
export function startScheduler(
  tick: () => Promise<unknown>,
  onError: (err: unknown) => void,
  everyMs = SCHEDULER_TICK_MS,
): Scheduler {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
