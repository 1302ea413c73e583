import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { patternText } from './schemas.js';
import { describeValidationError, validatorCompiler } from './validation.js';

type Check = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** The sentence a route answers for `data` against `schema` in the given part of the request. */
function sentence(schema: unknown, data: unknown, httpPart = 'body'): string {
  const check = validatorCompiler({
    schema,
    httpPart,
    method: 'POST',
    url: '/x',
  } as never) as unknown as Check;
  assert.equal(check(data), false, `${JSON.stringify(data)} should be refused`);
  return describeValidationError(check.errors as never, httpPart);
}

// Ajv's own sentences, which say neither the field nor anything a caller can act on.
const AJV_WORDING =
  /must NOT|must be [<>]=?|fewer than|more than|must match pattern|equal to constant|must match format|must have required|must be equal/;

describe('validation sentences', () => {
  const Body = Type.Object(
    {
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
      ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })),
      step: Type.Optional(Type.Number({ multipleOf: 5 })),
      tags: Type.Optional(Type.Array(Type.String(), { uniqueItems: true })),
      map: Type.Optional(Type.Object({}, { maxProperties: 2, additionalProperties: Type.String() })),
      id: Type.Optional(patternText('^thing_[0-9]{3}$', 'thing_ followed by 3 digits')),
      code: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    },
    { additionalProperties: false, minProperties: 1 },
  );
  const cases: Array<[unknown, string]> = [
    [{}, 'The request body must have at least one field.'],
    [{ count: 0 }, "The body field 'count' must be at least 1."],
    [{ count: 11 }, "The body field 'count' must be at most 10."],
    [{ ratio: 0 }, "The body field 'ratio' must be greater than 0."],
    [{ ratio: 1 }, "The body field 'ratio' must be less than 1."],
    [{ step: 7 }, "The body field 'step' must be a multiple of 5."],
    [
      { tags: ['a', 'b', 'a'] },
      "The body field 'tags' must not repeat an item (items 0 and 2 are the same).",
    ],
    [{ map: { a: '1', b: '2', c: '3' } }, "The body field 'map' must have at most 2 entries."],
    [{ id: 'thing_1' }, "The body field 'id' must be thing_ followed by 3 digits."],
    [{ code: 'abc' }, 'The body field \'code\' must match the pattern "^[A-Z]{2}$".'],
  ];
  for (const [data, expected] of cases) {
    it(`${JSON.stringify(data)}: ${expected}`, () => {
      const said = sentence(Body, data);
      assert.equal(said, expected);
      assert.doesNotMatch(said, AJV_WORDING);
    });
  }

  it('names query and path parameters as the control-character refusals do', () => {
    const Query = Type.Object({ perPage: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
    assert.equal(
      sentence(Query, { perPage: 0 }, 'querystring'),
      "The query parameter 'perPage' must be at least 1.",
    );
    assert.equal(sentence(Query, {}, 'querystring'), "The query parameter 'perPage' is required.");
    assert.equal(
      sentence(Query, { perPage: 1, page: 2 }, 'querystring'),
      "The query parameter 'page' is not allowed.",
    );
    const Params = Type.Object({
      id: patternText('^conv_[0-9A-Za-z]{22}$', 'conv_ followed by 22 letters or digits'),
    });
    assert.equal(
      sentence(Params, { id: 'conv_nope' }, 'params'),
      "The path parameter 'id' must be conv_ followed by 22 letters or digits.",
    );
  });
});
