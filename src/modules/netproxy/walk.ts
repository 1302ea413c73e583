import { AppError } from '../../platform/errors/index.js';
import type { TextField } from '../protection/index.js';

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
  /** A string here holds JSON (tool-call arguments): the strings inside are tokenized and it is written back. */
  readonly json?: boolean;
}

type Json = Record<string, unknown>;
type Holder = Json | unknown[];

/** Rule builders: `keys({...})` for an object's named keys, `KEEP` for a value that goes up as it came. */
export const KEEP: Rule = { keep: true };
export const JSON_TEXT: Rule = { json: true };

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

/** Where a container sits in the body; only read to name a field that received a token. */
interface Path {
  readonly up: Path | null;
  readonly key: string | number;
}

function pathName(path: Path | null, key: string | number): string {
  const parts: Array<string | number> = [key];
  for (let p = path; p; p = p.up) parts.push(p.key);
  let name = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const k = parts[i] as string | number;
    name += typeof k === 'number' ? `[${k}]` : name === '' ? k : `.${k}`;
  }
  return name;
}

function setValue(holder: Holder, key: string | number, value: unknown): void {
  (holder as Record<string | number, unknown>)[key] = value;
}

/**
 * How deep a JSON text may nest, as the body itself (parseJsonBody): the walk is recursive, and a text
 * nested thousands deep would otherwise end it with a stack overflow instead of the spec's error body.
 */
const MAX_JSON_TEXT_DEPTH = 64;

/** A JSON text held in a string (tool-call arguments): parsed for the walk, written back once changed. */
class JsonText {
  changed = false;
  constructor(
    private readonly holder: Holder,
    private readonly key: string | number,
    /** The parsed value under the same key, so that the fields inside are named after the property. */
    readonly box: Record<string | number, unknown>,
  ) {}

  commit(): void {
    if (this.changed) setValue(this.holder, this.key, JSON.stringify(this.box[this.key]));
  }
}

/** One string of the body. The name is built only when asked for (for a field that received a token). */
class LeafField implements TextField {
  constructor(
    readonly text: string,
    private readonly holder: Holder,
    private readonly key: string | number,
    private readonly path: Path | null,
    private readonly owner: JsonText | null,
  ) {}

  get name(): string {
    return pathName(this.path, this.key);
  }

  set(value: string): void {
    setValue(this.holder, this.key, value);
    if (this.owner && value !== this.text) this.owner.changed = true;
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
  let owner: JsonText | null = null;

  const visit = (
    v: unknown,
    r: Rule | undefined,
    holder: Holder,
    key: string | number,
    path: Path | null,
    depth: number,
  ): void => {
    if (typeof v === 'string') {
      if (r?.keep || v === '') return;
      if (r?.json && owner === null) {
        jsonText(v, holder, key, path);
        return;
      }
      fields.push(new LeafField(v, holder, key, path, owner));
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (owner !== null && depth > MAX_JSON_TEXT_DEPTH)
      throw new AppError(
        'invalid_request',
        `The request body cannot be inspected: a JSON text in it nests deeper than ${MAX_JSON_TEXT_DEPTH} levels. It was not sent.`,
      );
    const here: Path = { up: path, key };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], r, v, i, here, depth + 1);
      return;
    }
    const obj = v as Json;
    const rule = r?.pick?.(obj) ?? r;
    for (const k in obj) {
      const child = rule === undefined ? undefined : (rule.keys?.get(k) ?? rule.other);
      visit(obj[k], child, obj, k, here, depth + 1);
    }
  };

  const jsonText = (text: string, holder: Holder, key: string | number, path: Path | null) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a model may write anything there): one text field as it is.
      fields.push(new LeafField(text, holder, key, path, null));
      return;
    }
    const t = new JsonText(holder, key, { [key]: parsed });
    const before = fields.length;
    owner = t;
    // Everything inside is free text: arguments are what the model or the caller wrote.
    visit(parsed, undefined, t.box, key, path, 1);
    owner = null;
    if (fields.length > before) texts.push(t);
  };

  const root: Path | null = null;
  for (const k in body) {
    const child = rule.keys?.get(k) ?? rule.other;
    // The body itself is no deeper than its parser allowed: the depth is checked inside a JSON text only.
    visit(body[k], child, body, k, root, 1);
  }
  return {
    fields,
    commit() {
      for (const t of texts) t.commit();
    },
  };
}
