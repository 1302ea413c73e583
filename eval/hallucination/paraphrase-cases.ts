import type { StylePassage } from './style.js';

/**
 * Invented passages and claims, written for issue 17 on 2026-11-27 (21:00) to measure the two kinds the
 * private black-box set found weakest: supported claims written in other words than the source (synonyms,
 * nominalisations, a definition spelled out, another sentence structure, a claim that needs two adjacent
 * sentences) and entity swaps (a name of the passage put in another name's place). Nothing copied from a
 * public dataset. Never trained on: `npx tsx eval/hallucination/paraphrase.ts` scores them apart from the
 * leave-one-source-out headline, each passage checked together with two other passages of its language.
 */
export const PARAPHRASE_PASSAGES: StylePassage[] = [
  {
    id: 'pp-en-ferry',
    lang: 'en',
    passage:
      'The Marrow Point ferry began operating in 2011 between Dunmere and the island of Calloway. Foot passengers travel free of charge, while cars pay twelve pounds. The crossing takes twenty minutes. In 2019 the operator, Brackwater Lines, acquired a second vessel built in Norway.',
    claims: [
      ['Pedestrians do not pay anything to cross on the Marrow Point ferry.', 'supported', 'reworded'],
      [
        'Brackwater Lines bought a second boat, which was constructed in Norway, in 2019.',
        'supported',
        'reworded',
      ],
      ['Since 2011 a ferry has linked Dunmere with Calloway island.', 'supported', 'reworded'],
      [
        'The acquisition of a Norwegian-built vessel by Brackwater Lines took place in 2019.',
        'supported',
        'reworded',
      ],
      [
        'The Marrow Point ferry runs between Dunmere and the island of Brackwater.',
        'contradicted',
        'entity_swap',
      ],
      ['In 2019 the operator Calloway Lines acquired a second vessel.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-en-library',
    lang: 'en',
    passage:
      'The Hollins Street library was designed by the architect Maud Ferris and opened in 1962. The city council decided in 2020 to close it for renovation. The work was completed two years later. Its reading room seats 140 people.',
    claims: [
      [
        'The council made the decision to shut the Hollins Street library for repairs in 2020.',
        'supported',
        'reworded',
      ],
      ['Maud Ferris drew up the plans for the Hollins Street library.', 'supported', 'reworded'],
      ['There are places for 140 readers in its reading room.', 'supported', 'reworded'],
      ['The library, which Maud Ferris designed, was inaugurated in 1962.', 'supported', 'reworded'],
      [
        'The Hollins Street library was designed by the architect Maud Hollins.',
        'contradicted',
        'entity_swap',
      ],
      ['The Ferris Street library opened in 1962.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-en-vineyard',
    lang: 'en',
    passage:
      'Elena Sarto founded the Vallora vineyard in 1998 after leaving her job as a chemist in Turin. The estate produces about 40,000 bottles a year. Most of its wine is exported to Canada. Her son Marco has managed the cellar since 2015.',
    claims: [
      [
        'Before establishing the Vallora vineyard, Elena Sarto worked as a chemist in Turin.',
        'supported',
        'reworded',
      ],
      ['The estate makes roughly 40,000 bottles annually.', 'supported', 'reworded'],
      ['The greater part of the Vallora wine is sold abroad to Canada.', 'supported', 'reworded'],
      ['The cellar has been run by Marco, the son of Elena Sarto, since 2015.', 'supported', 'reworded'],
      ['Marco Sarto founded the Vallora vineyard in 1998.', 'contradicted', 'entity_swap'],
      ['Before founding Vallora, Elena Sarto worked as a chemist in Canada.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-en-bridge',
    lang: 'en',
    passage:
      'The Kessel Bridge crosses the river Aune at Plimford. It was built by the engineering firm Dorr & Lyle and replaced a wooden bridge that a flood destroyed in 1931. The bridge is 210 metres long. Heavy lorries have been banned from it since 2008.',
    claims: [
      ['Since 2008 heavy lorries are not allowed on the Kessel Bridge.', 'supported', 'reworded'],
      ['The construction of the Kessel Bridge was carried out by Dorr & Lyle.', 'supported', 'reworded'],
      ['A flood in 1931 wrecked the wooden bridge that the Kessel Bridge replaced.', 'supported', 'reworded'],
      ['The Kessel Bridge spans the Aune at Plimford and measures 210 metres.', 'supported', 'reworded'],
      ['The Kessel Bridge crosses the river Plimford at Aune.', 'contradicted', 'entity_swap'],
      ['The Kessel Bridge was built by the engineering firm Dorr & Aune.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-fr-musee',
    lang: 'fr',
    passage:
      "Le musée de la Soie de Varennes a été fondé en 1987 par l'historienne Claire Aubry. Il occupe une ancienne filature au bord de la Loue. L'entrée est gratuite le premier dimanche du mois. En 2016, la commune a acheté le bâtiment voisin pour agrandir les collections.",
    claims: [
      [
        "L'historienne Claire Aubry est à l'origine de la création du musée de la Soie en 1987.",
        'supported',
        'reworded',
      ],
      ['Le premier dimanche de chaque mois, on visite le musée sans payer.', 'supported', 'reworded'],
      ["L'acquisition du bâtiment voisin par la commune date de 2016.", 'supported', 'reworded'],
      [
        'Le musée est installé dans une ancienne filature située au bord de la Loue.',
        'supported',
        'reworded',
      ],
      [
        "Le musée de la Soie a été fondé en 1987 par l'historienne Claire Loue.",
        'contradicted',
        'entity_swap',
      ],
      [
        'Le musée de la Soie occupe une ancienne filature au bord de la Varennes.',
        'contradicted',
        'entity_swap',
      ],
    ],
  },
  {
    id: 'pp-fr-course',
    lang: 'fr',
    passage:
      "La course des Crêtes relie Saint-Aubin à Montclar sur 42 kilomètres. Elle a été créée en 2005 par le club d'athlétisme de Saint-Aubin. L'an dernier, la Suissesse Nadia Pelletier l'a remportée en un peu plus de quatre heures. Les organisateurs ont décidé de limiter le nombre de coureurs à 800.",
    claims: [
      [
        'Les organisateurs ont pris la décision de plafonner la participation à 800 coureurs.',
        'supported',
        'reworded',
      ],
      [
        "Le club d'athlétisme de Saint-Aubin est à l'origine de la course des Crêtes, lancée en 2005.",
        'supported',
        'reworded',
      ],
      ['La victoire est revenue l’an dernier à la Suissesse Nadia Pelletier.', 'supported', 'reworded'],
      ['Le parcours de 42 kilomètres va de Saint-Aubin jusqu’à Montclar.', 'supported', 'reworded'],
      [
        'La course des Crêtes a été créée en 2005 par le club d’athlétisme de Montclar.',
        'contradicted',
        'entity_swap',
      ],
      [
        "L'an dernier, la Suissesse Nadia Montclar a remporté la course des Crêtes.",
        'contradicted',
        'entity_swap',
      ],
    ],
  },
  {
    id: 'pp-fr-fromagerie',
    lang: 'fr',
    passage:
      "La fromagerie Besson, à Morteau, fabrique du comté depuis 1921. Elle appartient aujourd'hui à la coopérative des Hautes-Chaumes. Chaque année, environ 300 tonnes de fromage sortent de ses caves. Le directeur, Luc Girardet, a fait construire une nouvelle cave en 2018.",
    claims: [
      ['Depuis 1921, la fromagerie Besson de Morteau produit du comté.', 'supported', 'reworded'],
      [
        'La coopérative des Hautes-Chaumes est désormais propriétaire de la fromagerie Besson.',
        'supported',
        'reworded',
      ],
      ['La production annuelle des caves atteint à peu près 300 tonnes de fromage.', 'supported', 'reworded'],
      [
        "La construction d'une nouvelle cave a été décidée par le directeur Luc Girardet en 2018.",
        'supported',
        'reworded',
      ],
      [
        'La fromagerie Besson appartient aujourd’hui à la coopérative de Morteau.',
        'contradicted',
        'entity_swap',
      ],
      [
        'Le directeur de la fromagerie, Luc Besson, a fait construire une nouvelle cave en 2018.',
        'contradicted',
        'entity_swap',
      ],
    ],
  },
  {
    id: 'pp-fr-phare',
    lang: 'fr',
    passage:
      "Le phare de Kerlouan a été allumé pour la première fois en 1874. L'ingénieur Paul Le Gall en a dessiné les plans. Depuis 1992, il fonctionne sans gardien. La mairie de Plouvien organise des visites guidées en été.",
    claims: [
      ["Les plans du phare de Kerlouan sont l'œuvre de l'ingénieur Paul Le Gall.", 'supported', 'reworded'],
      ["Le phare n'a plus de gardien depuis 1992.", 'supported', 'reworded'],
      ['La première mise en service du phare de Kerlouan remonte à 1874.', 'supported', 'reworded'],
      [
        'En été, des visites avec un guide sont proposées par la mairie de Plouvien.',
        'supported',
        'reworded',
      ],
      [
        "Les plans du phare de Kerlouan ont été dessinés par l'ingénieur Paul Plouvien.",
        'contradicted',
        'entity_swap',
      ],
      ['La mairie de Kerlouan organise des visites guidées du phare en été.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-de-brauerei',
    lang: 'de',
    passage:
      'Die Brauerei Haslach wurde 1889 von Josef Winkler in Oberried gegründet. Seit 2003 gehört sie der Familie Brandl. Jedes Jahr werden dort rund 12.000 Hektoliter Bier gebraut. Im Jahr 2021 beschloss die Geschäftsführung, auf Solarstrom umzustellen.',
    claims: [
      ['Josef Winkler gründete die Brauerei Haslach im Jahr 1889 in Oberried.', 'supported', 'reworded'],
      ['Die Familie Brandl ist seit 2003 Eigentümerin der Brauerei Haslach.', 'supported', 'reworded'],
      ['Die jährliche Produktion liegt bei etwa 12.000 Hektolitern Bier.', 'supported', 'reworded'],
      ['Die Entscheidung, auf Solarstrom umzustellen, fiel 2021.', 'supported', 'reworded'],
      ['Die Brauerei Haslach wurde 1889 von Josef Brandl gegründet.', 'contradicted', 'entity_swap'],
      ['Seit 2003 gehört die Brauerei Haslach der Familie Winkler.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-de-bad',
    lang: 'de',
    passage:
      'Das Hallenbad in Lindenfels wurde 1974 eröffnet und 2019 für zwei Jahre geschlossen, um das Dach zu sanieren. Kinder unter sechs Jahren haben freien Eintritt. Das Becken ist 25 Meter lang. Betrieben wird das Bad von den Stadtwerken Bergheim.',
    claims: [
      ['Für Kinder unter sechs Jahren kostet der Eintritt nichts.', 'supported', 'reworded'],
      ['Die Stadtwerke Bergheim betreiben das Hallenbad in Lindenfels.', 'supported', 'reworded'],
      ['Wegen der Sanierung des Daches blieb das Bad ab 2019 zwei Jahre lang zu.', 'supported', 'reworded'],
      ['Die Eröffnung des Hallenbads in Lindenfels fand 1974 statt.', 'supported', 'reworded'],
      ['Das Hallenbad in Bergheim wurde 1974 eröffnet.', 'contradicted', 'entity_swap'],
      ['Betrieben wird das Bad von den Stadtwerken Lindenfels.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-de-verlag',
    lang: 'de',
    passage:
      'Der Verlag Sommerfeld in Kassel wurde 1950 von der Übersetzerin Ruth Berger gegründet. Er veröffentlicht vor allem Reiseliteratur. Im Jahr 2012 übernahm der Hamburger Konzern Nordbuch den Verlag. Die Leitung hat seitdem Tobias Kranz.',
    claims: [
      ['Die Übersetzerin Ruth Berger rief den Verlag Sommerfeld 1950 ins Leben.', 'supported', 'reworded'],
      ['Der Kasseler Verlag bringt hauptsächlich Reiseliteratur heraus.', 'supported', 'reworded'],
      ['Die Übernahme des Verlags durch den Konzern Nordbuch erfolgte 2012.', 'supported', 'reworded'],
      ['Seit 2012 wird der Verlag von Tobias Kranz geleitet.', 'supported', 'reworded'],
      [
        'Der Verlag Sommerfeld wurde 1950 von der Übersetzerin Ruth Kranz gegründet.',
        'contradicted',
        'entity_swap',
      ],
      ['Im Jahr 2012 übernahm der Konzern Sommerfeld den Verlag Nordbuch.', 'contradicted', 'entity_swap'],
    ],
  },
  {
    id: 'pp-de-seilbahn',
    lang: 'de',
    passage:
      'Die Seilbahn auf den Hochkopf wurde 1966 gebaut. Sie überwindet 900 Höhenmeter und fährt von Mai bis Oktober. Bei starkem Wind wird der Betrieb eingestellt. Die Gemeinde Talheim kaufte die Bahn 2010 von der Firma Alpina.',
    claims: [
      ['Die Seilbahn auf den Hochkopf stammt aus dem Jahr 1966.', 'supported', 'reworded'],
      ['Wenn der Wind stark ist, fährt die Seilbahn nicht.', 'supported', 'reworded'],
      ['Der Höhenunterschied, den die Seilbahn überwindet, beträgt 900 Meter.', 'supported', 'reworded'],
      ['Im Jahr 2010 erwarb die Gemeinde Talheim die Bahn von der Firma Alpina.', 'supported', 'reworded'],
      ['Die Gemeinde Alpina kaufte die Bahn 2010 von der Firma Talheim.', 'contradicted', 'entity_swap'],
      ['Die Seilbahn auf den Talheim wurde 1966 gebaut.', 'contradicted', 'entity_swap'],
    ],
  },
];
