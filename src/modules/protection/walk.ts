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
}

type Json = Record<string, unknown>;
type Holder = Json | unknown[];

/** Rule builders: `keys({...})` for an object's named keys, `KEEP` for a value that goes up as it came. */
export const KEEP: Rule = { keep: true };
export const JSON_TEXT: Rule = { json: true };
/** An end-user identifier (`user`, `metadata`): everything below tokenized, never blocked. */
export const IDENTIFIER: Rule = { identifier: true };

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
 * Where a container sits in the body; only read to name a field that received a token, and only when a
 * caller asks for names (the proxies do not). The body and its JSON texts nest at most 64 levels each, so
 * one name is at most about 128 parts.
 */
interface Path {
  readonly up: Path | null;
  readonly key: string | number;
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
    private readonly source: string,
    private readonly literals: JsonLiteral[],
  ) {}

  commit(): void {
    let out = '';
    let from = 0;
    for (const lit of this.literals) {
      if (lit.value === lit.text) continue;
      out += this.source.slice(from, lit.start) + JSON.stringify(lit.value);
      from = lit.end;
    }
    if (from > 0) setValue(this.holder, this.key, out + this.source.slice(from));
  }
}

/** The index just past the string literal that opens at `start` (a quote) in valid JSON text. */
function literalEnd(text: string, start: number): number {
  for (let i = start + 1; ; i++) {
    const c = text[i];
    // After a backslash comes the escaped character, never the literal's end.
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
  }
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
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
function jsonLiterals(text: string, path: Path | null, key: string | number): JsonLiteral[] {
  const out: JsonLiteral[] = [];
  const stack: Open[] = [];
  let top: Open | undefined;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"') {
      const end = literalEnd(text, i);
      let next = end;
      while (next < text.length && isSpace(text[next])) next++;
      const inner = text.slice(i + 1, end - 1);
      const value: string = inner.includes('\\') ? JSON.parse(text.slice(i, end)) : inner;
      if (text[next] === ':') {
        if (top) top.key = value;
      } else if (value !== '') {
        out.push(new JsonLiteral(value, i, end, top ? top.path : path, top ? top.key : key));
      }
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      // The depth once this container opens: the open ones above it, the current one, this one.
      if (stack.length + (top ? 2 : 1) > MAX_JSON_TEXT_DEPTH)
        throw new AppError(
          'invalid_request',
          `The request body cannot be inspected: a JSON text in it nests deeper than ${MAX_JSON_TEXT_DEPTH} levels. It was not sent.`,
        );
      const here: Path = top ? { up: top.path, key: top.key } : { up: path, key };
      if (top) stack.push(top);
      top = { path: here, key: c === '[' ? 0 : '' };
    } else if (c === '}' || c === ']') {
      top = stack.pop();
    } else if (c === ',' && top && typeof top.key === 'number') {
      top.key++;
    }
    i++;
  }
  return out;
}

/** One string of the body. The name is built only when asked for (for a field that received a token). */
class LeafField implements TextField {
  constructor(
    readonly text: string,
    private readonly holder: Holder,
    private readonly key: string | number,
    private readonly path: Path | null,
    readonly noBlock = false,
  ) {}

  get name(): string {
    return pathName(this.path, this.key);
  }

  set(value: string): void {
    setValue(this.holder, this.key, value);
  }
}

export interface Walked {
  fields: TextField[];
  /** Writes the JSON texts whose strings changed back into their properties (after tokenization). */
  commit(): void;
}

/**
 * Every string of `body` that `rule` does not keep, as a field whose `set` writes into the body. One pass,
 * linear in the size of the body; beyond the fields, one small object per object or array visited.
 */
export function walkBody(body: Json, rule: Rule): Walked {
  const fields: TextField[] = [];
  const texts: JsonText[] = [];

  const visit = (
    v: unknown,
    r: Rule | undefined,
    holder: Holder,
    key: string | number,
    path: Path | null,
    below: boolean,
  ) => {
    // Below an identifier (metadata's values), every string is one: the free text there has no rule.
    const identifier = below || r?.identifier === true;
    if (typeof v === 'string') {
      if (r?.keep || v === '') return;
      if (r?.json) jsonText(v, holder, key, path);
      else fields.push(new LeafField(v, holder, key, path, identifier));
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const here: Path = { up: path, key };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], r, v, i, here, identifier);
      return;
    }
    const obj = v as Json;
    const rule = r?.pick?.(obj) ?? r;
    for (const k in obj) {
      const child = rule === undefined ? undefined : (rule.keys?.get(k) ?? rule.other);
      visit(obj[k], child, obj, k, here, identifier);
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
    texts.push(new JsonText(holder, key, text, literals));
  };

  for (const k in body) visit(body[k], rule.keys?.get(k) ?? rule.other, body, k, null, false);
  return {
    fields,
    commit() {
      for (const t of texts) t.commit();
    },
  };
}
