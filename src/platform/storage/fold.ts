/**
 * The form of a name that unique indexes compare, "whatever its case" (device group names, docs/endpoint.md).
 * Computed here rather than by the database's lower(): SQLite's folds ASCII letters only, so "Équipe" and
 * "équipe" were two groups there and one on PostgreSQL. NFKC first (full-width "ＯＰＳ" and the ligature "ﬁ"
 * read as "OPS" and "fi"), then upper case and back to lower case: the full case mapping, under which "ß"
 * meets "SS" ("Straße" = "STRASSE") and final and medial sigma meet, which lower case alone misses; NFKC
 * again, since a case change can leave a decomposed form. A stored folded name is only valid for this
 * function: changing it needs a migration that recomputes every stored one (as 0064 first computed them).
 */
export function foldName(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
