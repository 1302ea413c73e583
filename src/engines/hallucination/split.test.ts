import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { listTail, splitClauses, splitSentences } from './split.js';

describe('splitSentences', () => {
  it('splits on sentence ends and keeps offsets', () => {
    const text = 'The plant opened in 2011. It employs 300 people! Is it profitable?';
    const s = splitSentences(text);
    assert.deepEqual(
      s.map((x) => x.text),
      ['The plant opened in 2011.', 'It employs 300 people!', 'Is it profitable?'],
    );
    assert.equal(text.slice(s[1]!.start, s[1]!.start + 2), 'It');
  });

  it('does not split after abbreviations, initials, decimals or German ordinal dates', () => {
    assert.equal(splitSentences('Dr. Smith met J. Doe at 3.5 km from the site.').length, 1);
    assert.equal(splitSentences('Die Brücke wurde am 12. Mai 2003 eröffnet. Sie ist lang.').length, 2);
  });
});

describe('splitClauses', () => {
  it('splits coordinated clauses and gives a verb phrase its subject back', () => {
    assert.deepEqual(splitClauses('Skywatch-3 was launched from Kourou in 2015 and orbits at 820 km.'), [
      'Skywatch-3 was launched from Kourou in 2015',
      'Skywatch-3 orbits at 820 km',
    ]);
  });

  it('turns a relative clause into its own sub-claim with the antecedent as subject', () => {
    assert.deepEqual(splitClauses('Harlow Robotics, which sells warehouse robots, has 1,250 employees.'), [
      'Harlow Robotics has 1,250 employees',
      'Harlow Robotics sells warehouse robots',
    ]);
  });

  it('expands lists into one sub-claim per item', () => {
    assert.deepEqual(splitClauses('The plant makes buses, trucks and vans.'), [
      'The plant makes buses',
      'The plant makes trucks',
      'The plant makes vans',
    ]);
  });

  it('splits French and German coordination and relative clauses', () => {
    assert.deepEqual(splitClauses('La société a été fondée en 2008 et emploie 860 salariés.'), [
      'La société a été fondée en 2008',
      'La société emploie 860 salariés',
    ]);
    const de = splitClauses('Die Firma, die 1.250 Mitarbeiter beschäftigt, wurde 2011 gegründet.');
    assert.equal(de.length, 2);
    assert.ok(de.includes('Die Firma wurde 2011 gegründet'));
  });

  it('keeps a single clause whole', () => {
    assert.deepEqual(splitClauses('Entry is free on Sundays.'), ['Entry is free on Sundays']);
  });
});

describe('listTail', () => {
  // The expression listTail replaces: the reference for its groups. It backtracks exponentially in the number
  // of commas, so the generated texts keep that number small.
  const LIST_TAIL = /^(.*?)((?:,\s*[^,;]+?)*)\s+(?:and|or|et|ou|und|oder)\s+([^,;]+)$/su;
  const reference = (c: string) => {
    const m = LIST_TAIL.exec(c);
    return m ? [m[1], m[2], m[3]] : null;
  };
  const pieces = [
    'a',
    'bus',
    'É',
    ' ',
    '  ',
    '\n',
    ',',
    ', ',
    ';',
    '; ',
    'and',
    'or',
    'ou',
    'oder',
    'und',
    'et',
    'an',
    'order',
    '\u00a0',
  ];

  it('gives the groups the expression gives, on generated texts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), (parts) => {
        const c = parts.join('');
        assert.deepEqual(listTail(c), reference(c), JSON.stringify(c));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives the groups the expression gives on lists as sentences write them', () => {
    for (const c of [
      'The plant makes buses, trucks and vans',
      'The plant makes buses, trucks, and vans',
      'Members are France, Germany, Italy, Spain or Portugal',
      'A, and B',
      'A,  and B',
      'He met X, Y; Z and W',
      'La société vend des vélos, des trottinettes et des casques',
      'Sie verkauft Räder, Roller oder Helme',
      'no list here',
    ])
      assert.deepEqual(listTail(c), reference(c), c);
  });

  it('stays linear on a long comma list without a conjunction', () => {
    // The expression took seconds here; the count of characters read is what is bounded, not time.
    const c = Array.from({ length: 400 }, (_, i) => `item ${i}`).join(', ');
    assert.equal(listTail(c), null);
    assert.deepEqual(listTail(`${c} and the rest`)?.[2], 'the rest');
  });
});

describe('listTail on long runs of spaces', () => {
  it('tries a run of spaces once: 200,000 spaces give the reference groups (one try per position would be 2·10¹⁰ steps)', () => {
    const run = ' '.repeat(200_000);
    assert.deepEqual(listTail(`x, y${run}b and z`), ['x', `, y${run}b`, 'z']);
    assert.equal(listTail(`x, y${run}b`), null);
  });
});

describe('pairs', () => {
  it('keeps "between A and B" in one clause in the three languages, and still splits a plain list', () => {
    assert.deepEqual(splitClauses('The ferry runs daily between Portmore and Skell.'), [
      'The ferry runs daily between Portmore and Skell',
    ]);
    assert.deepEqual(splitClauses('Er verkürzt die Fahrt zwischen Aschau und Rieden deutlich.'), [
      'Er verkürzt die Fahrt zwischen Aschau und Rieden deutlich',
    ]);
    assert.deepEqual(splitClauses('Le bac circule entre Brest et Ouessant.'), [
      'Le bac circule entre Brest et Ouessant',
    ]);
    assert.deepEqual(splitClauses('The firm sells robots, vans and trucks.'), [
      'The firm sells robots',
      'The firm sells vans',
      'The firm sells trucks',
    ]);
  });
});

describe('shared verbs and subjects (issue 17)', () => {
  it('keeps the German verb at the end with every coordinated object', () => {
    assert.deepEqual(splitClauses('Man kann Nähmaschinen und Werkzeug ausleihen.'), [
      'Man kann Nähmaschinen ausleihen',
      'Man kann Werkzeug ausleihen',
    ]);
    assert.deepEqual(
      splitClauses('Im Verein kann man Nähmaschinen, Bohrer und Werkzeug kostenlos ausleihen.'),
      [
        'Im Verein kann man Nähmaschinen kostenlos ausleihen',
        'Im Verein kann man Bohrer kostenlos ausleihen',
        'Im Verein kann man Werkzeug kostenlos ausleihen',
      ],
    );
  });

  it('gives a German verb-final clause the subject and auxiliary of the first back', () => {
    assert.deepEqual(
      splitClauses('Die Firma hat 2011 einen Standort in Lyon eröffnet und 300 Leute eingestellt.'),
      ['Die Firma hat 2011 einen Standort in Lyon eröffnet', 'Die Firma hat 300 Leute eingestellt'],
    );
    assert.deepEqual(splitClauses('Man kann dort Kurse besuchen und Werkzeug ausleihen.'), [
      'Man kann dort Kurse besuchen',
      'Man kann Werkzeug ausleihen',
    ]);
    // A separable verb ends its clause with a particle, not a participle: the plain subject rule applies.
    assert.deepEqual(splitClauses('Die Firma stellt Pumpen her und beschäftigt 300 Leute.'), [
      'Die Firma stellt Pumpen her',
      'Die Firma beschäftigt 300 Leute',
    ]);
  });

  it('gives a French or English verb phrase its common-noun subject, after an opening phrase of time', () => {
    assert.deepEqual(splitClauses('Le club prête des outils et organise des cours de couture.'), [
      'Le club prête des outils',
      'Le club organise des cours de couture',
    ]);
    assert.deepEqual(
      splitClauses("Chaque samedi, l'atelier prête des outils et organise des cours de couture."),
      ["Chaque samedi, l'atelier prête des outils", "Chaque samedi, l'atelier organise des cours de couture"],
    );
    assert.deepEqual(splitClauses('In 2015, the council approved the plan and funded the bridge.'), [
      'In 2015, the council approved the plan',
      'In 2015, the council funded the bridge',
    ]);
  });

  it('starts a list item at its article, however many words it has', () => {
    assert.deepEqual(splitClauses('Le club prête des machines à coudre et des outils.'), [
      'Le club prête des machines à coudre',
      'Le club prête des outils',
    ]);
    assert.deepEqual(splitClauses('The shop sells a sewing machine and a drill.'), [
      'The shop sells a sewing machine',
      'The shop sells a drill',
    ]);
  });
});
