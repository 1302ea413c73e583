// Which elements are a prompt box, for the content script's bar and the generic hook's "what is typed".
// Kept apart from the content script so the choice is tested without a page.

/**
 * The prompt boxes, for `closest()`: text areas, editable regions and one-line text inputs, including an
 * `<input>` with no type attribute (a text input by default) and a search box, which chat pages use.
 */
export const COMPOSER_SELECTOR =
  'textarea, [contenteditable=""], [contenteditable="true"], input:not([type]), input[type=text], input[type=search]';

/** Whether an `<input>` of this type (its `type` property: "text" when the attribute is absent) is one. */
export function isComposerInputType(type: string): boolean {
  return type === 'text' || type === 'search';
}
