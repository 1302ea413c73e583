/**
 * Chunk sizes for inserting n rows with multi-row statements: full chunks, then the rest in powers of two
 * (80 = 64 + 16). A multi-row insert's SQL text depends on its row count, and SQLite prepares each new
 * text afresh (0.3 ms for 80 rows, as long as running it) and keeps it in the statement cache; with these
 * sizes a table has at most log2(full) + 2 texts, all prepared once.
 */
export function statementChunks(n: number, full: number): number[] {
  const sizes: number[] = [];
  let rest = n;
  for (; rest >= full; rest -= full) sizes.push(full);
  // The rest is below `full`; starting from the largest power of two below it covers every rest, also when
  // `full` is not itself a power of two (full 100, rest 99 = 64 + 32 + 2 + 1).
  let largest = 1;
  while (largest * 2 < full) largest *= 2;
  for (let size = largest; size >= 1; size >>= 1) {
    if (rest >= size) {
      sizes.push(size);
      rest -= size;
    }
  }
  return sizes;
}
