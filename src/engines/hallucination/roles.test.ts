import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim, SIGNAL_NAMES } from './index.js';

// Sentences written for this test. A role inversion keeps every word and every name of its source.
const role = (claim: string, source: string): number =>
  checkClaim(claim, [source], { signals: true }).claims[0]!.signals![SIGNAL_NAMES.indexOf('conflict_role')]!;
const verdict = (claim: string, source: string) => checkClaim(claim, [source]).verdict;

describe('who did what to whom (roles.ts)', () => {
  it('contradicts two names exchanged around their verb, in EN, FR and DE', () => {
    const en = 'In the 2019 final, Tessa Marlow defeated Irina Vance in three sets.';
    assert.equal(verdict('Irina Vance defeated Tessa Marlow in the 2019 final.', en), 'contradicted');
    const fr = 'En 2019, Claire Dubois a battu Marie Lefèvre en finale du tournoi de Lyon.';
    assert.equal(
      verdict('Marie Lefèvre a battu Claire Dubois en finale du tournoi de Lyon.', fr),
      'contradicted',
    );
    const de = 'Anna Weber besiegte im Finale von 2019 die Titelverteidigerin Lena Roth.';
    assert.equal(verdict('Lena Roth besiegte Anna Weber im Finale von 2019.', de), 'contradicted');
  });

  it('reads passives in active order: the same roles in the other voice are no inversion', () => {
    const fr =
      'La finale du tournoi de Lyon a eu lieu samedi. Claire Dubois a battu Marie Lefèvre en deux sets, devant trois mille spectateurs.';
    assert.equal(role('Marie Lefèvre a été battue par Claire Dubois.', fr), 0);
    assert.ok(role('Claire Dubois a été battue par Marie Lefèvre.', fr) > 0);
    const succession = 'In 1990 Otto Lenz was succeeded by Karl Brun as mayor of Tessaly.';
    assert.equal(role('Karl Brun succeeded Otto Lenz as mayor of Tessaly.', succession), 0);
    assert.ok(role('Otto Lenz succeeded Karl Brun as mayor of Tessaly.', succession) > 0);
    const en = 'In 2004 the Hallam Trust hired Oskar Brandt as its first director.';
    assert.equal(role('Oskar Brandt was hired by the Hallam Trust in 2004.', en), 0);
    assert.equal(role('The Hallam Trust hired Oskar Brandt in 2004.', en), 0);
    assert.ok(role('Oskar Brandt hired the Hallam Trust in 2004.', en) > 0);
    const de = 'Lena Roth wurde im Finale von Anna Weber besiegt.';
    assert.equal(role('Anna Weber besiegte Lena Roth im Finale.', de), 0);
    assert.ok(role('Lena Roth besiegte Anna Weber im Finale.', de) > 0);
  });

  it('leaves alone verbs whose arguments may be exchanged and passives without their auxiliary', () => {
    assert.equal(
      role('Oskar Brandt married Ines Kroll in 1998.', 'In 1998 Ines Kroll married Oskar Brandt.'),
      0,
    );
    assert.equal(
      role(
        'Nightfall Harbour is a film directed by Paul Serrano.',
        'Paul Serrano directed Nightfall Harbour in 2011.',
      ),
      0,
    );
    // Partners: "worked with", "starred alongside", "arbeitete mit … zusammen".
    assert.equal(
      role(
        'Tom Harlan worked with Meg Rowe at the Lindqvist Institute.',
        'Meg Rowe worked with Tom Harlan at the Lindqvist Institute.',
      ),
      0,
    );
    assert.equal(
      role('Anna Weber arbeitete mit Lena Roth zusammen.', 'Lena Roth arbeitete mit Anna Weber zusammen.'),
      0,
    );
    // Names on one side of the verb only ("X and Y founded …") carry no roles to compare.
    assert.equal(
      role(
        'Ines Kroll and Oskar Brandt founded the company.',
        'Oskar Brandt and Ines Kroll founded the company.',
      ),
      0,
    );
  });
});
