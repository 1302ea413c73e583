/**
 * Chunk sizes for inserting n rows with multi-row statements: full chunks, then the rest in powers of two
 * (80 = 64 + 16). A multi-row insert's SQL text depends on its row count, and SQLite prepares each new
 * text afresh (0.3 ms for 80 rows, as long as running it) and keeps it in the statement cache; with these
 * sizes a table has at most log2(full) + 1 texts, all prepared once.
 */
export function statementChunks(n: number, full: number): number[] {
  const sizes: number[] = [];
  let rest = n;
  for (; rest >= full; rest -= full) sizes.push(full);
  for (let size = full >> 1; size >= 1; size >>= 1) {
    if (rest >= size) {
      sizes.push(size);
      rest -= size;
    }
  }
  return sizes;
}
