export type Lang = 'en' | 'fr' | 'de' | 'it' | 'es';

/** Hand-written pieces one split of the corpus is composed from. `{goal}` and `{quote}` are slots. */
export interface Fragments {
  /** Attack cores per category and language; `{goal}` is replaced by one of `goals[lang]`. */
  attacks: { category: string; lang: Lang; texts: string[] }[];
  goals: Record<Lang, string[]>;
  /** Ordinary prompts. */
  benign: Record<Lang, string[]>;
  /** Benign prompts that look risky: "ignore my last message", code with `system`, role-play, translation. */
  hard: Record<Lang, string[]>;
  /** Security discussion around a quoted attack; `{quote}` is an attack core. */
  discussion: Record<Lang, string[]>;
  /** Benign documents (emails, pages, tool output); attacks are planted in them for the indirect rows. */
  documents: Record<Lang, string[]>;
}
