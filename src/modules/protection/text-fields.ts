/** One text-carrying place of a request that tokenization reads and rewrites. */
export interface TextField {
  /** A JSON-path-like name for protection.tokenizedFields, e.g. messages[2].content. */
  name: string;
  text: string;
  /**
   * An end-user identifier (`user`, `metadata`): tokenized like any field, but a type in the organization's
   * `dlp.blockTypes` found here does not refuse the request. Apps put the employee's e-mail there on every
   * call, so blocking EMAIL would refuse all of them, while the value never reaches the provider in clear.
   */
  readonly noBlock?: boolean;
  set(value: string): void;
}
