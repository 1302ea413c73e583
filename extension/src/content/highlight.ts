import type { Entity } from '../../../src/engines/dlp/index.js';

// Highlights the personal data found in the prompt box, where the user sees it. A contenteditable box gets
// CSS Custom Highlights (ranges over the site's own text nodes: its DOM is not changed, so the site's editor
// state is untouched). A textarea's text has no DOM ranges, so a mirror of it is laid over the box in a
// Shadow DOM: same font, padding, wrapping and scroll, transparent text, tinted marks; it takes no clicks.
// While the user types the marks are hidden (they would be out of place) until the next analysis.

const NAME = 'parapet-pii';
const TINT = 'rgba(255, 170, 0, 0.35)';
// Everything that places glyphs inside the box; its size and place come from its border box (place()).
const MIRRORED = [
  'paddingTop',
  'paddingRight',
  'paddingBottom',
  'paddingLeft',
  'borderTopWidth',
  'borderRightWidth',
  'borderBottomWidth',
  'borderLeftWidth',
  'borderTopStyle',
  'borderRightStyle',
  'borderBottomStyle',
  'borderLeftStyle',
  'fontFamily',
  'fontSize',
  'fontWeight',
  'fontStyle',
  'fontVariant',
  'fontStretch',
  'letterSpacing',
  'wordSpacing',
  'lineHeight',
  'textAlign',
  'textIndent',
  'textTransform',
  'tabSize',
  'direction',
] as const;

type Highlights = { set(name: string, h: unknown): void; delete(name: string): boolean };
const registry = (): Highlights | undefined =>
  (globalThis as unknown as { CSS?: { highlights?: Highlights } }).CSS?.highlights;
const HighlightCtor = (globalThis as unknown as { Highlight?: new (...r: Range[]) => unknown }).Highlight;

export class PromptHighlighter {
  private readonly host = document.createElement('parapet-highlights');
  private readonly mirror = document.createElement('div');
  private box: HTMLTextAreaElement | HTMLInputElement | null = null;
  private readonly listening = new WeakSet<Element>();

  constructor() {
    const root = this.host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `:host { all: initial; }
div { position: fixed; z-index: 2147483646; pointer-events: none; overflow: hidden; color: transparent; box-sizing: border-box;
  white-space: pre-wrap; overflow-wrap: break-word; border-color: transparent; background: transparent; margin: 0; }
div[hidden] { display: none; }
mark { color: transparent; background: ${TINT}; border-radius: 3px; }`;
    this.mirror.hidden = true;
    root.append(style, this.mirror);
    addEventListener('resize', () => this.place(), { passive: true });
    addEventListener('scroll', () => this.place(), { passive: true, capture: true });
  }

  /** Hides the marks until the next `show` (the text changed under them). */
  hide(): void {
    this.mirror.hidden = true;
    registry()?.delete(NAME);
  }

  show(el: HTMLElement, text: string, entities: readonly Entity[]): void {
    this.hide();
    if (entities.length === 0) return;
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) this.overlay(el, text, entities);
    else this.ranges(el, text, entities);
  }

  private overlay(
    el: HTMLTextAreaElement | HTMLInputElement,
    text: string,
    entities: readonly Entity[],
  ): void {
    this.box = el;
    if (!this.host.isConnected) (document.body ?? document.documentElement).append(this.host);
    const parts: Node[] = [];
    let cursor = 0;
    for (const e of entities) {
      parts.push(document.createTextNode(text.slice(cursor, e.start)));
      const mark = document.createElement('mark');
      mark.textContent = text.slice(e.start, e.end);
      mark.dataset['type'] = e.type;
      parts.push(mark);
      cursor = e.end;
    }
    // A trailing newline needs a character after it to take its line, as in the textarea.
    parts.push(document.createTextNode(`${text.slice(cursor)}\u200b`));
    this.mirror.replaceChildren(...parts);
    const cs = getComputedStyle(el);
    for (const p of MIRRORED) this.mirror.style[p] = cs[p];
    if (el instanceof HTMLInputElement) this.mirror.style.whiteSpace = 'pre';
    if (!this.listening.has(el)) {
      el.addEventListener('scroll', () => this.place(), { passive: true });
      this.listening.add(el);
    }
    this.mirror.hidden = false;
    this.place();
  }

  private place(): void {
    const el = this.box;
    if (!el || this.mirror.hidden) return;
    if (!el.isConnected) {
      this.hide();
      return;
    }
    const r = el.getBoundingClientRect();
    this.mirror.style.left = `${r.left}px`;
    this.mirror.style.top = `${r.top}px`;
    this.mirror.style.width = `${r.width}px`;
    this.mirror.style.height = `${r.height}px`;
    this.mirror.scrollTop = el.scrollTop;
    this.mirror.scrollLeft = el.scrollLeft;
  }

  /** Ranges over the box's text nodes for each value found (found by its text, in order). */
  private ranges(el: HTMLElement, text: string, entities: readonly Entity[]): void {
    const reg = registry();
    if (!reg || !HighlightCtor) return;
    ensurePageStyle();
    const nodes: Array<{ node: Text; start: number }> = [];
    let flat = '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      nodes.push({ node: n as Text, start: flat.length });
      flat += n.nodeValue ?? '';
    }
    const at = (offset: number, end: boolean) => {
      // The node holding this offset (an end offset may sit at the very end of a node).
      let i = nodes.length - 1;
      while (i > 0 && (end ? nodes[i]!.start >= offset : nodes[i]!.start > offset)) i--;
      return { node: nodes[i]!.node, offset: offset - nodes[i]!.start };
    };
    const found: Range[] = [];
    let cursor = 0;
    for (const e of entities) {
      const value = text.slice(e.start, e.end);
      const idx = flat.indexOf(value, cursor);
      if (idx < 0) continue; // spans block boundaries (innerText adds line breaks there): not marked
      const a = at(idx, false);
      const b = at(idx + value.length, true);
      const range = document.createRange();
      range.setStart(a.node, a.offset);
      range.setEnd(b.node, b.offset);
      found.push(range);
      cursor = idx + value.length;
    }
    if (found.length > 0) reg.set(NAME, new HighlightCtor(...found));
  }
}

/** `::highlight()` must be styled from the page's own style sheets: one small rule, added once. */
function ensurePageStyle(): void {
  if (document.getElementById('parapet-highlight-style')) return;
  const style = document.createElement('style');
  style.id = 'parapet-highlight-style';
  style.textContent = `::highlight(${NAME}) { background-color: ${TINT}; }`;
  (document.head ?? document.documentElement).append(style);
}
