/**
 * The warn-before-submit rule (the endpoint policy's `rules.dataProtection.warnBeforeSubmit`) a device
 * applies where no policy sets one: the browser extension before enrollment and an enrolled device whose
 * policies leave it out, and what the dashboard's policy editor starts a new policy with. One definition,
 * so enrolling (or saving a policy without touching the field) never leaves a device less strict than the
 * extension's built-in protection. The threshold is a risk score of this engine (0–100).
 */
export const DEFAULT_WARN_BEFORE_SUBMIT: Readonly<{ enabled: boolean; threshold: number }> = {
  enabled: true,
  threshold: 50,
};
