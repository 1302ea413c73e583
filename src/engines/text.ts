// Small text helpers shared by the engines' loops that replaced backtracking patterns
// (src/engines/regex-backtracking.test.ts): a loop over code units must agree with the patterns beside it.

/**
 * What `/\s/` matches, for one UTF-16 code unit (white space and line terminators). Shared by the engines'
 * loops that replaced patterns: a loop over code units must agree with the `\s` of the patterns beside it.
 */
export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Where the run of code units at the end of `s` that `drop` accepts begins, looking back from `to` (never before `from`): the loop
 * that stands for a trailing `[…]+$`, which a regular expression retries from every unit of a long run that
 * stops before the end (quadratic).
 */
export function endOfKept(s: string, drop: (code: number) => boolean, from = 0, to = s.length): number {
  let end = to;
  while (end > from && drop(s.charCodeAt(end - 1))) end--;
  return end;
}

/** `s` without the trailing run that `drop` accepts. */
export function trimEndWhere(s: string, drop: (code: number) => boolean): string {
  const end = endOfKept(s, drop);
  return end === s.length ? s : s.slice(0, end);
}
