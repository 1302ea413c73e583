/**
 * A trie over the letters a–z, as flat arrays: `next[node * 26 + letter]` is the child, or -1 (node 0 is
 * the root); `endOf[i]` is the node where word i ends. The cue words of the views and the required-word
 * literals of the patterns are both looked up this way, walking the text's letters without making strings.
 * Words must hold only a–z.
 */
export function letterTrie(words: readonly string[]): { next: number[]; endOf: number[]; nodes: number } {
  const next: number[] = new Array(26).fill(-1);
  let nodes = 1;
  const endOf = words.map((w) => {
    let node = 0;
    for (let k = 0; k < w.length; k++) {
      const slot = node * 26 + w.charCodeAt(k) - 97;
      let child = next[slot] as number;
      if (child < 0) {
        child = nodes++;
        for (let x = 0; x < 26; x++) next.push(-1);
        next[slot] = child;
      }
      node = child;
    }
    return node;
  });
  return { next, endOf, nodes };
}
