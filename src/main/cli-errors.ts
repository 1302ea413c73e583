/**
 * An expected failure that is not a usage error (an organization that does not exist, a cloud host that
 * does not answer, a serving command without its database): the CLI prints its message as one line and
 * exits 1, without the "(run parapet --help)" hint that would send the operator to the wrong place.
 */
export class ExpectedFailure extends Error {
  override name = 'ExpectedFailure';
}
