import { AppError } from '../../platform/errors/index.js';
import type { TextField } from './text-fields.js';

/**
 * How deep a JSON text inside the body (tool-call arguments) may nest: as deep as the body itself may
 * (parseJsonBody). Each string's path is as deep as its nesting, so a short text of 20,000 brackets around
 * a few thousand strings made names (and the time to build them) grow with depth × strings.
 */
const MAX_JSON_TEXT_DEPTH = 64;

/**
 * What the walk of a request body does below one position. The default is to tokenize: a position without
 * a rule, and every string below it, is text. A rule only names what must not be tokenized (structural
 * values, opaque or signed data) and where JSON text sits; see rules.ts for the lists and their reasons.
 */
export interface Rule {
  /** A string here, or each string of an array here, goes up as it came. Objects here follow keys/other. */
  readonly keep?: boolean;
  /** The rules of an object's keys. */
  readonly keys?: ReadonlyMap<string, Rule>;
  /** The rule of every key not in `keys`; absent, those keys are free text (every string below tokenized). */
  readonly other?: Rule;
  /** An object whose rule depends on its own fields (a source by its type); undefined keeps this rule. */
  readonly pick?: (obj: Json) => Rule | undefined;
  /** A string here holds JSON (tool-call arguments): its string values are tokenized, only changed ones rewritten. */
  readonly json?: boolean;
  /** An end-user identifier: every string below is tokenized but never refuses the request (TextField.noBlock). */
  readonly identifier?: boolean;
  /**
   * An object here is a free-form map whose keys are data (`metadata`, `labels`): each key is a field too,
   * renamed when tokenized, and so is each key of every object below it (a map nested in the map is the
   * caller's data as much as its values; the provider refuses it or, Cohere's documents, reads it). Keys
   * anywhere else are names a schema, a tool or the provider reads, and stay.
   */
  readonly dataKeys?: boolean;
  /**
   * Strings and keys below take their tokens in lower case: Vertex labels allow lower-case letters, digits,
   * `_` and `-` only, which a lower-cased token (`tkn_email_…`) satisfies. Rehydration reads any case.
   */
  readonly lowerCase?: boolean;
}

type Json = Record<string, unknown>;
type Holder = Json | unknown[];

/** Rule builders: `keys({...})` for an object's named keys, `KEEP` for a value that goes up as it came. */
export const KEEP: Rule = { keep: true };
export const JSON_TEXT: Rule = { json: true };
/** An end-user identifier (`user`, `metadata`): everything below tokenized, never blocked. */
export const IDENTIFIER: Rule = { identifier: true };
/** A free-form map of end-user identifiers (`metadata`): keys and values tokenized, never blocked. */
export const IDENTIFIER_MAP: Rule = { identifier: true, dataKeys: true };

export function keys(named: Record<string, Rule>, more: Omit<Rule, 'keys'> = {}): Rule {
  return { ...more, keys: new Map(Object.entries(named)) };
}

/** A rule that refers to itself (a schema inside a schema, a block inside a block): `self` is filled after. */
export function recursive(build: (self: Rule) => Rule): Rule {
  const self = {} as Rule;
  return Object.assign(self, build(self));
}

/** A rule with more named keys than `base` (a variant chosen by `pick`). */
export function extend(base: Rule, named: Record<string, Rule>): Rule {
  const { pick: _pick, ...rest } = base;
  return { ...rest, keys: new Map([...(base.keys ?? []), ...Object.entries(named)]) };
}

/**
 * Where a container sits in the body: read to name a field that received a token (only when a caller asks
 * for names; the proxies do not) and, for the body's own containers, to mark the way down to a change for
 * the rewrite of the body's text. The body and its JSON texts nest at most 64 levels each, so one name is
 * at most about 128 parts.
 */
interface Path {
  readonly up: Path | null;
  readonly key: string | number;
  /** The container itself: set for the body's containers (a JSON text's are only named). */
  readonly node?: Holder;
}

/** Path parts a field name keeps: its last ones, so naming every field costs no more than the body's size. */
const NAME_PARTS = 12;

function pathName(path: Path | null, key: string | number): string {
  const parts: Array<string | number> = [key];
  let p = path;
  for (; p && parts.length < NAME_PARTS; p = p.up) parts.push(p.key);
  // Cut above: "…" then the kept parts, the first without its dot ("…arguments.to").
  let name = p ? '…' : '';
  const bare = name;
  for (let i = parts.length - 1; i >= 0; i--) {
    const k = parts[i] as string | number;
    name += typeof k === 'number' ? `[${k}]` : name === bare ? k : `.${k}`;
  }
  return name;
}

function setValue(holder: Holder, key: string | number, value: unknown): void {
  (holder as Record<string | number, unknown>)[key] = value;
}

/**
 * What tokenization changed in the body, for the rewrite of its text: the containers that hold a changed
 * string or key and every container above them (the rewrite goes down those only and skips the others
 * whole), and the keys renamed in each container. Renamed keys and changed JSON texts mark themselves;
 * changed strings are marked when the text is rewritten. Nothing is allocated until something changes.
 */
class Changes {
  dirty: Set<object> | null = null;
  renamed: Map<object, Map<string, string>> | null = null;

  /** Marks the container at `path` and those above it, up to one already marked: linear in all. */
  mark(path: Path | null): void {
    this.dirty ??= new Set();
    const dirty = this.dirty;
    for (let p = path; p?.node && !dirty.has(p.node); p = p.up) dirty.add(p.node);
  }

  rename(holder: object, from: string, to: string): void {
    this.renamed ??= new Map();
    let keys = this.renamed.get(holder);
    if (!keys) {
      keys = new Map();
      this.renamed.set(holder, keys);
    }
    keys.set(from, to);
  }
}

/**
 * A JSON text rewritten at a few places, in order, every other byte copied as it is: the one way the walk
 * changes JSON text, for tool-call arguments and for the whole body alike.
 */
class Splice {
  private out = '';
  private from = 0;
  constructor(private readonly source: string) {}

  /** Replaces source[start, end) with `text`. */
  put(start: number, end: number, text: string): void {
    this.out += this.source.slice(this.from, start) + text;
    this.from = end;
  }

  get changed(): boolean {
    return this.from > 0;
  }

  text(): string {
    return this.from === 0 ? this.source : this.out + this.source.slice(this.from);
  }
}

/** One string value inside a JSON text, with where its literal sits in that text. */
class JsonLiteral implements TextField {
  value: string;
  constructor(
    readonly text: string,
    readonly start: number,
    readonly end: number,
    private readonly path: Path | null,
    private readonly key: string | number,
  ) {
    this.value = text;
  }

  get name(): string {
    return pathName(this.path, this.key);
  }

  set(value: string): void {
    this.value = value;
  }
}

/**
 * A JSON text held in a string (tool-call arguments). Only the string literals that tokenization changed
 * are rewritten; every other byte stays as written. Parsing and serializing the text again would also
 * rewrite what was not touched: spacing, escapes, and numbers beyond 2^53 (12345678901234567890 would go
 * up as 12345678901234567000), which is the caller's data altered on its way to the provider.
 */
class JsonText {
  constructor(
    private readonly holder: Holder,
    private readonly key: string | number,
    /** The holder's own path: marked when the text changed. */
    private readonly path: Path | null,
    private readonly source: string,
    private readonly literals: JsonLiteral[],
    private readonly changes: Changes,
  ) {}

  commit(): void {
    const out = new Splice(this.source);
    for (const lit of this.literals)
      if (lit.value !== lit.text) out.put(lit.start, lit.end, JSON.stringify(lit.value));
    if (!out.changed) return;
    setValue(this.holder, this.key, out.text());
    this.changes.mark(this.path);
  }
}

/** The index just past the string literal that opens at `start` (a quote) in valid JSON text. */
function literalEnd(text: string, start: number): number {
  // Native search for the next quote; one after an odd run of backslashes is escaped, not the end.
  for (let q = text.indexOf('"', start + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    let b = q - 1;
    while (text.charCodeAt(b) === 92 /* \ */) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
  }
  return text.length;
}

/** The index just past the container that opens at `start` (a bracket) in valid JSON text. */
function containerEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) i = literalEnd(text, i) - 1;
    else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if ((c === 125 /* } */ || c === 93) /* ] */ && --depth === 0) return i + 1;
  }
  return text.length;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The string a literal (quotes included) of valid JSON text stands for. */
function decode(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : inner;
}

/** Whether the literal at [start, end) stands for `value`, without copying it when it has no escapes. */
function sameLiteral(text: string, start: number, end: number, value: string): boolean {
  for (let i = start + 1; i < end - 1; i++)
    if (text.charCodeAt(i) === 92 /* \ */) return JSON.parse(text.slice(start, end)) === value;
  return value.length === end - start - 2 && text.startsWith(value, start + 1);
}

/** What a lexical pass over valid JSON text reports, in the text's order. */
interface Scan {
  /** A container opens; false skips it whole (nothing inside is reported, its close neither). */
  open(array: boolean): boolean;
  close(): void;
  comma(): void;
  /** An object key's literal, quotes included: [start, end). */
  key(start: number, end: number): void;
  /** A string value's literal, quotes included: [start, end). */
  value(start: number, end: number): void;
}

/**
 * One lexical pass over valid JSON text (parsed before: this does not validate): strings are found by
 * native search, containers a scan does not need are skipped at the same speed. Linear in the text.
 */
function scanJson(text: string, scan: Scan): void {
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = literalEnd(text, i);
      let next = end;
      while (next < text.length && isSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === 58 /* : */) scan.key(i, end);
      else scan.value(i, end);
      i = end;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (!scan.open(c === 91)) {
        i = containerEnd(text, i);
        continue;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) scan.close();
    else if (c === 44 /* , */) scan.comma();
    i++;
  }
}

/**
 * The containers open at a point of a scan, innermost on top, each with the key or index it is at: what
 * both scans below keep (close and comma move it; open and key are each scan's own).
 */
class Nesting<F extends { key: string | number }> {
  top: F | undefined;
  private readonly stack: F[] = [];

  /** How many containers are open once one more opens. */
  get depthWithOneMore(): number {
    return this.stack.length + (this.top ? 2 : 1);
  }

  push(frame: F): void {
    if (this.top) this.stack.push(this.top);
    this.top = frame;
  }

  close(): void {
    this.top = this.stack.pop();
  }

  comma(): void {
    if (this.top && typeof this.top.key === 'number') this.top.key++;
  }
}

/** A container of the JSON text being scanned: its place in the body, and the key or index it is at. */
interface Open {
  readonly path: Path;
  key: string | number;
}

/**
 * The string values of a valid JSON text, in one lexical pass: object keys are passed over (they are names
 * the caller's code reads), each value literal is decoded and named after the property path above it
 * (arguments.to, arguments.list[1]). A text nested deeper than MAX_JSON_TEXT_DEPTH is refused (400).
 */
class LiteralScan extends Nesting<Open> implements Scan {
  readonly out: JsonLiteral[] = [];
  constructor(
    private readonly text: string,
    private readonly path: Path | null,
    /** The text's own key in the body (its holder's), for a text that is one string. */
    private readonly at: string | number,
  ) {
    super();
  }

  open(array: boolean): boolean {
    if (this.depthWithOneMore > MAX_JSON_TEXT_DEPTH)
      throw new AppError(
        'invalid_request',
        `The request body cannot be inspected: a JSON text in it nests deeper than ${MAX_JSON_TEXT_DEPTH} levels. It was not sent.`,
      );
    const top = this.top;
    const here: Path = top ? { up: top.path, key: top.key } : { up: this.path, key: this.at };
    this.push({ path: here, key: array ? 0 : '' });
    return true;
  }

  key(start: number, end: number): void {
    if (this.top) this.top.key = decode(this.text, start, end);
  }

  value(start: number, end: number): void {
    const value = decode(this.text, start, end);
    if (value === '') return;
    const top = this.top;
    this.out.push(new JsonLiteral(value, start, end, top ? top.path : this.path, top ? top.key : this.at));
  }
}

function jsonLiterals(text: string, path: Path | null, key: string | number): JsonLiteral[] {
  const scan = new LiteralScan(text, path, key);
  scanJson(text, scan);
  return scan.out;
}

/** A container of the body on the way to a change, while its text is rewritten. */
interface Frame {
  readonly node: Holder;
  key: string | number;
}

/**
 * `source` (the text `body` was parsed from) with only what tokenization changed rewritten: each changed
 * string literal re-encoded from its new value, each renamed key; every other byte (numbers beyond 2^53,
 * spacing, escapes, key order) as the caller sent it. One lexical pass that goes down the changed
 * containers only and skips the others whole. The text has no repeated key in one object (parseJsonBody
 * refuses them), so each key of the text is the one key of the parsed object the walk saw.
 */
class RewriteScan extends Nesting<Frame> implements Scan {
  readonly out: Splice;
  constructor(
    private readonly source: string,
    private readonly body: Json,
    private readonly dirty: Set<object>,
    private readonly renamed: Map<object, Map<string, string>> | null,
  ) {
    super();
    this.out = new Splice(source);
  }

  open(array: boolean): boolean {
    // The root is the body; below, only containers on the way to a change are entered.
    const top = this.top;
    const node = top ? (top.node as Record<string | number, unknown>)[top.key] : this.body;
    if (top && !this.dirty.has(node as object)) return false;
    this.push({ node: node as Holder, key: array ? 0 : '' });
    return true;
  }

  key(start: number, end: number): void {
    const top = this.top;
    if (!top) return;
    const key = decode(this.source, start, end);
    const to = this.renamed?.get(top.node)?.get(key);
    if (to === undefined) {
      top.key = key;
      return;
    }
    this.out.put(start, end, JSON.stringify(to));
    top.key = to;
  }

  value(start: number, end: number): void {
    const top = this.top;
    if (!top) return;
    const now = (top.node as Record<string | number, unknown>)[top.key];
    if (typeof now === 'string' && !sameLiteral(this.source, start, end, now))
      this.out.put(start, end, JSON.stringify(now));
  }
}

function rewriteText(source: string, body: Json, changes: Changes): string {
  if (changes.dirty === null) return source;
  const scan = new RewriteScan(source, body, changes.dirty, changes.renamed);
  scanJson(source, scan);
  return scan.out.text();
}

/** Flags a position passes down to every string (and, DATA_KEYS, every object) below it. */
const IDENT = 1;
const LOWER = 2;
const DATA_KEYS = 4;

/**
 * One string of the body. The name is built only when asked for (for a field that received a token). It
 * holds nothing for the rewrite of the body's text: that asks each field whether it changed (`changed`),
 * so the provider proxy, which sends no text, pays nothing for it.
 */
class LeafField implements TextField {
  constructor(
    readonly text: string,
    private readonly holder: Holder,
    private readonly key: string | number,
    /** The holder's own path. */
    readonly path: Path | null,
    readonly noBlock = false,
  ) {}

  get name(): string {
    return pathName(this.path, this.key);
  }

  /** Whether a value other than the text was set (or the key it sits under was renamed). */
  get changed(): boolean {
    return (this.holder as Record<string | number, unknown>)[this.key] !== this.text;
  }

  set(value: string): void {
    setValue(this.holder, this.key, value);
  }
}

/** A string whose tokens are written in lower case (Rule.lowerCase). */
class LowerField extends LeafField {
  override set(value: string): void {
    super.set(value === this.text ? value : value.toLowerCase());
  }
}

/**
 * A key of a free-form map (Rule.dataKeys). Set after the value under it (it is listed after it), so the
 * value's field writes under the old key and the rename carries the new value along.
 */
class KeyField implements TextField {
  constructor(
    readonly text: string,
    private readonly holder: Json,
    /** The holder's own path. */
    private readonly path: Path,
    private readonly changes: Changes,
    private readonly flags: number,
  ) {}

  get noBlock(): boolean {
    return (this.flags & IDENT) !== 0;
  }

  get name(): string {
    return `${pathName(this.path, this.text)} (key)`;
  }

  set(value: string): void {
    if (value === this.text) return;
    const to = this.flags & LOWER ? value.toLowerCase() : value;
    // Two spellings of one datum ("Anna@x.ch" and "anna@x.ch") share a token: two keys would become one,
    // and the provider would see only one of the values. Refused rather than merged or sent in clear.
    if (Object.hasOwn(this.holder, to))
      throw new AppError(
        'invalid_request',
        'The request body cannot be inspected: two keys of one object hold the same personal data written differently, and would be one key once tokenized. It was not sent.',
      );
    const v = this.holder[this.text];
    delete this.holder[this.text];
    this.holder[to] = v;
    this.changes.rename(this.holder, this.text, to);
    this.changes.mark(this.path);
  }
}

export interface Walked {
  fields: TextField[];
  /** Writes the JSON texts whose strings changed back into their properties (after tokenization). */
  commit(): void;
  /**
   * The text the body was parsed from (`source`), with only the string literals and keys that changed
   * rewritten (commit included); every other byte as it came. `source` itself when nothing changed.
   */
  rewrite(source: string): string;
}

/**
 * Every string of `body` that `rule` does not keep, and every key of a free-form map, as a field whose
 * `set` writes into the body. One pass, linear in the size of the body; beyond the fields, one small
 * object per object or array visited.
 */
export function walkBody(body: Json, rule: Rule): Walked {
  const fields: TextField[] = [];
  const texts: JsonText[] = [];
  const changes = new Changes();

  const visit = (
    v: unknown,
    r: Rule | undefined,
    holder: Holder,
    key: string | number,
    path: Path | null,
    above: number,
  ) => {
    // Below an identifier (metadata's values), every string is one: the free text there has no rule.
    const flags = above | (r?.identifier ? IDENT : 0) | (r?.lowerCase ? LOWER : 0);
    if (typeof v === 'string') {
      if (r?.keep || v === '') return;
      if (r?.json) jsonText(v, holder, key, path);
      else if (flags & LOWER) fields.push(new LowerField(v, holder, key, path, (flags & IDENT) !== 0));
      else fields.push(new LeafField(v, holder, key, path, (flags & IDENT) !== 0));
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const here: Path = { up: path, key, node: v as Holder };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], r, v, i, here, flags);
      return;
    }
    const obj = v as Json;
    const rule = r?.pick?.(obj) ?? r;
    // Below a data map, every object's keys are data too (Rule.dataKeys).
    const below = rule?.dataKeys ? flags | DATA_KEYS : flags;
    const dataKeys = (below & DATA_KEYS) !== 0;
    for (const k in obj) {
      const child = rule === undefined ? undefined : (rule.keys?.get(k) ?? rule.other);
      visit(obj[k], child, obj, k, here, below);
      // After the value: see KeyField.
      if (dataKeys && k !== '') fields.push(new KeyField(k, obj, here, changes, flags));
    }
  };

  const jsonText = (text: string, holder: Holder, key: string | number, path: Path | null) => {
    try {
      // Only to know that it is JSON: the lexical pass below reads valid JSON text only.
      JSON.parse(text);
    } catch {
      // Not JSON (a model may write anything there): one text field as it is.
      fields.push(new LeafField(text, holder, key, path));
      return;
    }
    // Everything inside is free text: arguments are what the model or the caller wrote.
    const literals = jsonLiterals(text, path, key);
    if (literals.length === 0) return;
    for (const l of literals) fields.push(l);
    texts.push(new JsonText(holder, key, path, text, literals, changes));
  };

  for (const k in body) visit(body[k], rule.keys?.get(k) ?? rule.other, body, k, null, 0);
  let committed = false;
  const commit = () => {
    if (committed) return;
    committed = true;
    for (const t of texts) t.commit();
  };
  return {
    fields,
    commit,
    rewrite(source) {
      // A text whose changed arguments were not written back would send them as they came.
      commit();
      // Only now, and only here, are the changed strings' containers marked (see LeafField).
      for (const f of fields) if (f instanceof LeafField && f.changed) changes.mark(f.path);
      return rewriteText(source, body, changes);
    },
  };
}
