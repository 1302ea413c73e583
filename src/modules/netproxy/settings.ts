/** What the network proxy does with a request body it does not inspect (docs/netproxy.md). */
export const UNINSPECTED = ['forward', 'refuse'] as const;
export type Uninspected = (typeof UNINSPECTED)[number];

/**
 * The default forwards: issue 18 asks that a provider's paths the proxy does not know (models lists, files,
 * operations a provider adds) reach it unchanged, so an SDK keeps working whole behind the proxy. An
 * organization that prefers a 403 to a body sent uninspected sets `refuse` (docs/netproxy.md says which
 * operations are inspected and what `refuse` breaks).
 */
export const DEFAULT_UNINSPECTED: Uninspected = 'forward';

/** The organization's `netproxy.uninspected`, or the default. */
export function uninspectedOf(settings: Record<string, unknown>): Uninspected {
  const v = (settings['netproxy'] as { uninspected?: unknown } | undefined)?.uninspected;
  return v === 'forward' || v === 'refuse' ? v : DEFAULT_UNINSPECTED;
}

/** The body of the network proxy's own errors (docs/netproxy.md, Errors). */
export const ERROR_FORMATS = ['spec', 'native'] as const;
export type ErrorFormat = (typeof ERROR_FORMATS)[number];

/**
 * The default is the spec's Error body, which every endpoint returns (SPEC.md, docs/errors.md). `native`
 * answers Parapet's own refusals in the provider's error shape, which an SDK shows the message of (with the
 * spec's body the `openai` SDK shows only "forbidden"): an opt-in for organizations whose users read SDK
 * errors rather than raw bodies.
 */
export const DEFAULT_ERROR_FORMAT: ErrorFormat = 'spec';

/** The organization's `netproxy.errorFormat`, or the default. */
export function errorFormatOf(settings: Record<string, unknown>): ErrorFormat {
  const v = (settings['netproxy'] as { errorFormat?: unknown } | undefined)?.errorFormat;
  return v === 'spec' || v === 'native' ? v : DEFAULT_ERROR_FORMAT;
}
