import { CLOSED_BY_CUE, CUE_BEFORE, type PatternDef, reportedBefore } from './types.js';

/**
 * Matching a pattern, with the "reported" and "mentioned" look-arounds of an order (types.ts, givenOrders)
 * checked in code instead of by the regex engine (#15).
 *
 * In the full expression those look-arounds run at every end the engine tries: NOT_MENTIONED reads up to
 * 290 characters back and 120 ahead each time, and a hostile text with thousands of matches paid that
 * thousands of times over (one long word then prose went from 20 to 41 ms). Here the expression without
 * them (`guard.body`) is matched first; the checks are then read once, at the opening end and the match
 * end it found, from per-text tables of quotation marks and line ends (TextMarks). When they pass, the
 * full expression would have returned the very same match: it tries the same paths in the same order,
 * each only more constrained, and this path passes. When they fail, the full expression is run, anchored
 * at that start, to find what it would have (rare: an order quoted as an example, or reported).
 */
export class PatternMatcher {
  /** End of the last match `next` found. */
  end = -1;
  private readonly fullSticky: RegExp;
  private readonly fullGlobal: RegExp;
  private readonly bodySticky: RegExp | null = null;
  private readonly bodyGlobal: RegExp | null = null;
  private readonly captured: boolean = false;
  /** Holds (empty match) at the opening end when the order is reported: its look-behind made positive. */
  private readonly reported: RegExp | null = null;
  /** Holds at a quotation mark that a mention cue opens (CUE_BEFORE). */
  readonly cue: RegExp | null = null;
  /** Matches at a quotation mark that closes a quotation followed by a cue (CLOSED_BY_CUE). */
  readonly closed: RegExp | null = null;

  /**
   * `transform` turns a source into the one this matcher runs (identity, or the joined-up-letter form of
   * patterns/index.ts): it rewrites tokens in place, so the pieces transformed one by one add up to the
   * transformed whole. `variant` keeps the per-text memo of each form apart.
   */
  constructor(
    def: PatternDef,
    transform: (source: string) => string,
    readonly variant: 0 | 1,
  ) {
    const full = transform(def.source);
    this.fullSticky = new RegExp(full, 'y');
    this.fullGlobal = new RegExp(full, 'g');
    const guard = def.guard;
    if (!guard) return;
    const body = transform(guard.body);
    this.bodySticky = new RegExp(body, 'y');
    this.bodyGlobal = new RegExp(body, 'g');
    this.captured = guard.captured;
    if (guard.opening !== null)
      this.reported = new RegExp(transform(`(?<=${reportedBefore(guard.opening)})`), 'y');
    this.cue = new RegExp(transform(`(?<=${CUE_BEFORE})`), 'y');
    this.closed = new RegExp(transform(CLOSED_BY_CUE), 'y');
  }

  /** End of the match starting exactly at `at`, or -1: what the full expression, sticky, finds there. */
  endAt(text: string, marks: TextMarks, at: number): number {
    const body = this.bodySticky;
    if (!body) return stickyEnd(this.fullSticky, text, at);
    body.lastIndex = at;
    const m = body.exec(text);
    if (!m) return -1;
    const end = at + m[0].length;
    if (this.passes(text, marks, this.captured ? at + (m[1] as string).length : at, end)) return end;
    return stickyEnd(this.fullSticky, text, at);
  }

  /** Start of the leftmost match at or after `from` (its end in `end`), or -1: what a global scan finds. */
  next(text: string, marks: TextMarks, from: number): number {
    const body = this.bodyGlobal;
    if (!body) {
      this.fullGlobal.lastIndex = from;
      const m = this.fullGlobal.exec(text);
      if (!m) return -1;
      this.end = m.index + m[0].length;
      return m.index;
    }
    // The body matches wherever the full expression does (it has fewer conditions): no start before the
    // body's next match can be one, and at that start the full expression decides.
    for (let at = from; at <= text.length; ) {
      body.lastIndex = at;
      const m = body.exec(text);
      if (!m) return -1;
      const start = m.index;
      const end = start + m[0].length;
      if (this.passes(text, marks, this.captured ? start + (m[1] as string).length : start, end)) {
        this.end = end;
        return start;
      }
      const full = stickyEnd(this.fullSticky, text, start);
      if (full >= 0) {
        this.end = full;
        return start;
      }
      at = start + 1;
    }
    return -1;
  }

  private passes(text: string, marks: TextMarks, openingEnd: number, end: number): boolean {
    const reported = this.reported;
    if (reported) {
      reported.lastIndex = openingEnd;
      if (reported.test(text)) return false;
    }
    return !marks.mentionedAt(this, end);
  }
}

function stickyEnd(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? at + m[0].length : -1;
}

const isWordCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** Every position of `mark` in `text`, in order (found by indexOf, which skips the rest at native speed). */
function positionsOf(text: string, mark: string): Int32Array {
  const out: number[] = [];
  for (let i = text.indexOf(mark); i >= 0; i = text.indexOf(mark, i + 1)) out.push(i);
  return Int32Array.from(out);
}

/** Index of the first of the sorted `xs` at or after `pos` (xs.length when none is). */
function lowerBound(xs: Int32Array, pos: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last of the sorted `xs` below `pos`, or -1. */
function lastBelow(xs: Int32Array, pos: number): number {
  const i = lowerBound(xs, pos);
  return i > 0 ? (xs[i - 1] as number) : -1;
}

/** The first of the sorted `xs` at or after `pos`, or -1. */
function firstFrom(xs: Int32Array, pos: number): number {
  const i = lowerBound(xs, pos);
  return i < xs.length ? (xs[i] as number) : -1;
}

/**
 * Where the quotation marks and line ends of one text are, found on first use and shared by every
 * pattern matched in it, so that NOT_MENTIONED costs a few binary searches per match.
 */
export class TextMarks {
  private quotes: Int32Array | null = null;
  private apostrophes: Int32Array | null = null;
  private newlines: Int32Array | null = null;
  /** Per form (plain, joined-up): quotation mark position → whether a mention cue opens it. */
  private readonly cueMemo: Map<number, boolean>[] = [new Map(), new Map()];

  constructor(private readonly text: string) {}

  /**
   * Whether NOT_MENTIONED fails at `end`: its look-behind holds (a quotation opened after a cue, still open
   * at `end`) or its look-ahead does (a quotation closed by a cue within 120 characters).
   *
   * The look-behind `CUE_BEFORE (?:"[^"\n]{0,250}|(?<!\w)'[^'\n]{0,250})` can only use the LAST `"` before
   * `end` (no `"` may lie between) and the last `'` (no `'` may), each on the same line and at most 250
   * characters back; the look-ahead `[^"\n]{0,120}` + CLOSED_BY_CUE only the first `"` at or after `end`.
   */
  mentionedAt(m: PatternMatcher, end: number): boolean {
    const text = this.text;
    this.quotes ??= positionsOf(text, '"');
    this.apostrophes ??= positionsOf(text, "'");
    this.newlines ??= positionsOf(text, '\n');
    const line = lastBelow(this.newlines, end);
    const q = lastBelow(this.quotes, end);
    if (q > line && end - q - 1 <= 250 && this.cueOpens(m, q)) return true;
    const a = lastBelow(this.apostrophes, end);
    if (
      a > line &&
      end - a - 1 <= 250 &&
      (a === 0 || !isWordCode(text.charCodeAt(a - 1))) &&
      this.cueOpens(m, a)
    )
      return true;
    const r = firstFrom(this.quotes, end);
    if (r < 0 || r - end > 120 || lastBelow(this.newlines, r) >= end) return false;
    const closed = m.closed as RegExp;
    closed.lastIndex = r;
    return closed.test(text);
  }

  /** CUE_BEFORE ends at quotation mark `q` (memoised: many matches share the quotation they sit in). */
  private cueOpens(m: PatternMatcher, q: number): boolean {
    const memo = this.cueMemo[m.variant] as Map<number, boolean>;
    const known = memo.get(q);
    if (known !== undefined) return known;
    const cue = m.cue as RegExp;
    cue.lastIndex = q;
    const yes = cue.test(this.text);
    memo.set(q, yes);
    return yes;
  }
}
