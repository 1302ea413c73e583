/** Hand-written material of one language, composed into training rows by own/index.ts. */
export interface LangMaterial {
  lang: 'en' | 'fr' | 'de' | 'it' | 'es';
  /** Openers that tell the model to drop what it was told ("ignore the previous instructions and"). */
  overrides: string[];
  /** What an attacker wants done; completes an override or an address to the AI reader. */
  goals: string[];
  /** Ways text inside a document addresses the AI that reads it; followed by a goal. */
  aiAddress: string[];
  /** Jailbreak set-ups (persona, no rules); followed by a goal. */
  personas: string[];
  /** Ordinary requests and questions a user types. */
  requests: string[];
  /** Documents an assistant reads: e-mails, web pages, code, tool output, passages. */
  documents: string[];
  /** What a user asks to do with a document ("summarise this e-mail:"). */
  docTasks: string[];
  /** Benign texts that look like attacks: talk about injections, fiction, "ignore my last message". */
  hardNegatives: string[];
  /** Frames with {q} for quoting an attack to ask about it, or to have it translated. */
  quoteFrames: string[];
}
