import { riskLevel } from '../shared/analysis.js';

// The DLP bar: a Shadow-DOM element under the prompt box, so the site's CSS cannot reach it and its own
// styles cannot leak into the site. Only its buttons take clicks: the rest never covers the site's controls. It shows what the last analysis found, the risk score and what the
// policy will do; it may ask one question (warn before submit) and waits for the answer.

const CSS = `
:host { all: initial; }
.bar { position: fixed; z-index: 2147483647; box-sizing: border-box; font: 12px/1.4 system-ui, sans-serif;
  background: #fff; color: #1b1f24; border: 1px solid #c9d1d9; border-radius: 8px; padding: 6px 10px;
  box-shadow: 0 2px 8px rgba(0,0,0,.12); display: flex; pointer-events: none; flex-wrap: wrap; gap: 6px 10px; align-items: center; }
.bar[hidden] { display: none; }
.brand { font-weight: 600; }
.chip { background: #eef2f6; border-radius: 10px; padding: 1px 8px; }
.risk { font-weight: 600; }
.risk.low { color: #1a7f37; } .risk.mid { color: #9a6700; } .risk.high { color: #cf222e; }
.msg { flex-basis: 100%; }
.msg.warn { color: #9a6700; } .msg.error { color: #cf222e; }
button { pointer-events: auto; font: inherit; border: 1px solid #c9d1d9; background: #f6f8fa; border-radius: 6px; padding: 1px 8px; cursor: pointer; }
button.primary { background: #1f6feb; color: #fff; border-color: #1f6feb; }
`;

export interface BarView {
  counts: Array<{ type: string; count: number }>;
  risk: number;
  multiplier: number;
  action: string;
  tokenize: boolean;
  tokenizeLocked: boolean;
}

export class DlpBar {
  private readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly bar: HTMLDivElement;
  private anchor: Element | null = null;
  private message: { text: string; level: 'info' | 'warn' | 'error' } | null = null;
  private view: BarView | null = null;
  private question: { text: string; resolve: (ok: boolean) => void } | null = null;
  onToggleTokenize: (on: boolean) => void = () => undefined;

  constructor() {
    this.host = document.createElement('parapet-dlp-bar');
    this.root = this.host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = CSS;
    this.bar = document.createElement('div');
    this.bar.className = 'bar';
    this.bar.setAttribute('role', 'status');
    this.bar.hidden = true;
    this.root.append(style, this.bar);
    addEventListener('resize', () => this.place(), { passive: true });
    addEventListener('scroll', () => this.place(), { passive: true, capture: true });
  }

  /** The text the bar shows, for tests and screen readers. */
  get text(): string {
    return this.bar.innerText || this.bar.textContent || '';
  }

  attach(anchor: Element): void {
    this.anchor = anchor;
    if (!this.host.isConnected) (document.body ?? document.documentElement).append(this.host);
    this.place();
  }

  show(view: BarView): void {
    this.view = view;
    this.render();
  }

  say(text: string, level: 'info' | 'warn' | 'error' = 'info'): void {
    this.message = { text, level };
    this.render();
  }

  ask(text: string): Promise<boolean> {
    this.question?.resolve(false);
    return new Promise((resolve) => {
      this.question = { text, resolve };
      this.render();
    });
  }

  private place(): void {
    if (!this.anchor?.isConnected) return;
    const r = this.anchor.getBoundingClientRect();
    const height = this.bar.offsetHeight || 32;
    // Under the prompt box; above it when the box sits at the bottom of the window, as chat boxes do.
    const below = r.bottom + 4 + height <= innerHeight;
    this.bar.style.left = `${Math.max(4, r.left)}px`;
    this.bar.style.width = `${Math.max(240, r.width)}px`;
    this.bar.style.top = `${below ? r.bottom + 4 : Math.max(4, r.top - height - 4)}px`;
  }

  private render(): void {
    const b = this.bar;
    b.replaceChildren();
    const el = (tag: string, cls: string, text: string) => {
      const e = document.createElement(tag);
      e.className = cls;
      e.textContent = text;
      return e;
    };
    b.append(el('span', 'brand', 'Parapet'));
    const v = this.view;
    if (v) {
      if (v.counts.length === 0) b.append(el('span', 'chip', 'No personal data'));
      for (const c of v.counts) b.append(el('span', 'chip', `${c.type} ×${c.count}`));
      const level = riskLevel(v.risk);
      b.append(
        el('span', `risk ${level}`, `Risk ${v.risk}/100${v.multiplier > 1 ? ` (×${v.multiplier})` : ''}`),
      );
      b.append(el('span', 'action', `Action: ${v.action}`));
      const toggle = el('button', '', `Tokens: ${v.tokenize ? 'on' : 'off'}`) as HTMLButtonElement;
      toggle.disabled = v.tokenizeLocked;
      toggle.title = v.tokenizeLocked
        ? 'Required by your organization'
        : 'Replace personal data by tokens on send';
      toggle.addEventListener('click', () => this.onToggleTokenize(!v.tokenize));
      b.append(toggle);
    }
    if (this.message) b.append(el('div', `msg ${this.message.level}`, this.message.text));
    if (this.question) {
      const q = this.question;
      const row = el('div', 'msg warn', `${q.text} `);
      const yes = el('button', 'primary', 'Send anyway');
      const no = el('button', '', 'Cancel');
      const answer = (ok: boolean) => {
        this.question = null;
        q.resolve(ok);
        this.render();
      };
      yes.addEventListener('click', () => answer(true));
      no.addEventListener('click', () => answer(false));
      row.append(yes, ' ', no);
      b.append(row);
    }
    b.hidden = !v && !this.message && !this.question;
    this.host.dataset['text'] = this.text;
    this.place();
  }
}
