import type { StylePassage } from './style.js';

// Passages et affirmations inventés, écrits pour cette évaluation (voir style.ts).
export const STYLE_FR: StylePassage[] = [
  {
    id: 'fr-tramway',
    lang: 'fr',
    passage:
      "La ligne de tramway T4 de Valmont a été mise en service en mai 2021. Longue de 11 kilomètres, elle relie la gare centrale au quartier des Tanneurs en 28 minutes. Le projet a coûté 290 millions d'euros, financés en grande partie par la région. Une rame passe toutes les six minutes aux heures de pointe.",
    claims: [
      ['Aux heures de pointe, les rames se succèdent toutes les six minutes.', 'supported', 'reworded'],
      [
        'Il faut 28 minutes pour aller de la gare centrale au quartier des Tanneurs avec le T4.',
        'supported',
        'reworded',
      ],
      [
        'La ligne T4 de Valmont relie la gare centrale au quartier des Remparts.',
        'contradicted',
        'entity_swap',
      ],
      ['La ligne mesure 11 kilomètres.', 'supported', 'qa_right'],
      ['La ligne mesure 17 kilomètres.', 'contradicted', 'qa_wrong'],
      [
        "Ouverte en mai 2021, la ligne T4 de Valmont parcourt 11 kilomètres entre la gare et les Tanneurs. Elle a coûté 290 millions d'euros, surtout payés par la région.",
        'supported',
        'summary_faithful',
      ],
      [
        "Ouverte en mai 2021, la ligne T4 de Valmont parcourt 11 kilomètres entre la gare et les Tanneurs. Elle a été entièrement financée par l'État.",
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-fromagerie',
    lang: 'fr',
    passage:
      'La fromagerie Berthaud, installée à Saint-Aubin depuis 1952, produit chaque année 400 tonnes de comté. Elle collecte le lait de 62 fermes situées à moins de 25 kilomètres. Depuis 2018, elle est dirigée par Claire Berthaud, petite-fille du fondateur. Une partie de la production est exportée vers le Japon.',
    claims: [
      ['Le lait provient de 62 exploitations, toutes à moins de 25 kilomètres.', 'supported', 'reworded'],
      [
        'Claire Berthaud, la petite-fille du fondateur, est à la tête de la fromagerie depuis 2018.',
        'supported',
        'reworded',
      ],
      [
        'Depuis 2018, la fromagerie est dirigée par Claire Aubin, petite-fille du fondateur.',
        'contradicted',
        'entity_swap',
      ],
      ['La fromagerie fabrique 400 tonnes de comté par an.', 'supported', 'qa_right'],
      ['La fromagerie fabrique 900 tonnes de comté par an.', 'contradicted', 'qa_wrong'],
      [
        'Établie à Saint-Aubin depuis 1952, la fromagerie Berthaud produit 400 tonnes de comté par an avec le lait de 62 fermes voisines. Une partie part au Japon.',
        'supported',
        'summary_faithful',
      ],
      [
        "Établie à Saint-Aubin depuis 1952, la fromagerie Berthaud produit 400 tonnes de comté par an. Elle a remporté une médaille d'or à Paris l'an dernier.",
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-hopital',
    lang: 'fr',
    passage:
      "Le nouvel hôpital de Montclar a accueilli ses premiers patients le 3 janvier 2023. Il compte 480 lits et remplace deux établissements plus anciens du centre-ville. Le bâtiment a été conçu par le cabinet d'architectes Rives & Delorme. Un héliport sur le toit permet de transférer les blessés graves vers Lyon.",
    claims: [
      [
        "Les blessés graves peuvent être évacués vers Lyon grâce à l'héliport installé sur le toit.",
        'supported',
        'reworded',
      ],
      [
        'Deux anciens hôpitaux du centre-ville ont été remplacés par cet établissement de 480 lits.',
        'supported',
        'reworded',
      ],
      [
        "Le nouvel hôpital de Montclar a été conçu par le cabinet d'architectes Rives & Montclar.",
        'contradicted',
        'entity_swap',
      ],
      ["L'hôpital dispose de 480 lits.", 'supported', 'qa_right'],
      ["L'hôpital dispose de 250 lits.", 'contradicted', 'qa_wrong'],
      [
        "L'hôpital de Montclar, dessiné par Rives & Delorme, a ouvert en janvier 2023. Avec ses 480 lits, il succède à deux hôpitaux du centre.",
        'supported',
        'summary_faithful',
      ],
      [
        "L'hôpital de Montclar, dessiné par Rives & Delorme, a ouvert en janvier 2023. Il n'a pas d'héliport et les blessés sont transférés par la route.",
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-velo',
    lang: 'fr',
    passage:
      "Le service de vélos en libre-service de Coursan compte 1 200 vélos répartis dans 95 stations. Lancé en 2016, il a enregistré 2,3 millions de trajets l'an dernier. L'abonnement annuel coûte 35 euros et les trente premières minutes de chaque trajet sont gratuites. Le service est exploité par la société Cyclea.",
    claims: [
      ['Chaque trajet est gratuit pendant ses trente premières minutes.', 'supported', 'reworded'],
      [
        "L'an passé, les usagers ont effectué 2,3 millions de déplacements avec ces vélos.",
        'supported',
        'reworded',
      ],
      ['Le service de vélos de Coursan est exploité par la société Velora.', 'contradicted', 'entity_swap'],
      ["Un abonnement d'un an coûte 35 euros.", 'supported', 'qa_right'],
      ["Un abonnement d'un an coûte 55 euros.", 'contradicted', 'qa_wrong'],
      [
        "Lancé en 2016 et géré par Cyclea, le service de Coursan propose 1 200 vélos dans 95 stations. L'abonnement annuel est à 35 euros.",
        'supported',
        'summary_faithful',
      ],
      [
        'Lancé en 2016 et géré par Cyclea, le service de Coursan propose 1 200 vélos dans 95 stations. La moitié des vélos sont électriques.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-roman',
    lang: 'fr',
    passage:
      "Le roman « Les Îles basses » de Mathilde Serre est paru en septembre 2020 aux éditions du Grand Large. Il raconte la vie d'une famille de pêcheurs bretons sur trois générations. Le livre a reçu le prix des Libraires en 2021 et s'est vendu à 180 000 exemplaires. Une adaptation au cinéma est en tournage à Douarnenez.",
    claims: [
      ["Le livre suit trois générations d'une famille de pêcheurs de Bretagne.", 'supported', 'reworded'],
      ['Cent quatre-vingt mille exemplaires du roman ont été vendus.', 'supported', 'reworded'],
      [
        '« Les Îles basses » est un roman de Mathilde Douarnenez paru en 2020.',
        'contradicted',
        'entity_swap',
      ],
      ['Le roman a obtenu le prix des Libraires.', 'supported', 'qa_right'],
      ['Le roman a obtenu le prix Goncourt.', 'contradicted', 'qa_wrong'],
      [
        "Publié en 2020, le roman de Mathilde Serre sur une famille de pêcheurs bretons a remporté le prix des Libraires. Un film est en train d'être tourné à Douarnenez.",
        'supported',
        'summary_faithful',
      ],
      [
        "Publié en 2020, le roman de Mathilde Serre sur une famille de pêcheurs bretons a remporté le prix des Libraires. Le film tiré du livre est sorti en salles l'an dernier.",
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-barrage',
    lang: 'fr',
    passage:
      "Le barrage de la Sioule, achevé en 1964, retient un lac de 320 hectares. Sa centrale produit environ 95 gigawattheures par an, l'équivalent de la consommation de 40 000 habitants. La baignade est interdite près du mur du barrage. Des travaux de renforcement ont été menés par l'entreprise Arvel entre 2019 et 2021.",
    claims: [
      ['Il est interdit de se baigner à proximité du mur du barrage.', 'supported', 'reworded'],
      [
        "L'électricité produite par la centrale couvre les besoins d'environ 40 000 habitants.",
        'supported',
        'reworded',
      ],
      [
        "Les travaux de renforcement du barrage ont été menés par l'entreprise Sioule entre 2019 et 2021.",
        'contradicted',
        'entity_swap',
      ],
      ['Le barrage a été terminé en 1964.', 'supported', 'qa_right'],
      ['Le barrage a été terminé en 1946.', 'contradicted', 'qa_wrong'],
      [
        "Terminé en 1964, le barrage de la Sioule forme un lac de 320 hectares et produit près de 95 GWh par an. Arvel l'a renforcé de 2019 à 2021.",
        'supported',
        'summary_faithful',
      ],
      [
        'Terminé en 1964, le barrage de la Sioule forme un lac de 320 hectares. La baignade est autorisée partout sur le lac, y compris près du mur.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-ecole',
    lang: 'fr',
    passage:
      "L'école d'ingénieurs de Rochebrune accueille 1 600 étudiants, dont 38 % de femmes. Fondée en 1971, elle est spécialisée dans l'énergie et les matériaux. Depuis 2022, tous les étudiants doivent passer un semestre à l'étranger. La directrice, Sophie Marchand, a été nommée en 2019.",
    claims: [
      [
        'Un semestre hors de France est obligatoire pour chaque étudiant depuis 2022.',
        'supported',
        'reworded',
      ],
      ["Les femmes représentent 38 % des 1 600 élèves de l'école.", 'supported', 'reworded'],
      [
        "La directrice de l'école d'ingénieurs de Rochebrune, Sophie Rochet, a été nommée en 2019.",
        'contradicted',
        'entity_swap',
      ],
      ["L'école est spécialisée dans l'énergie et les matériaux.", 'supported', 'qa_right'],
      ["L'école est spécialisée dans l'informatique et la finance.", 'contradicted', 'qa_wrong'],
      [
        "Créée en 1971, l'école de Rochebrune forme 1 600 étudiants en énergie et matériaux. Sophie Marchand la dirige depuis 2019.",
        'supported',
        'summary_faithful',
      ],
      [
        "Créée en 1971, l'école de Rochebrune forme 1 600 étudiants en énergie et matériaux. Elle prévoit d'ouvrir un campus au Canada en 2026.",
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-vignoble',
    lang: 'fr',
    passage:
      "Le domaine des Coteaux-Rouges s'étend sur 48 hectares au sud de Beaune. Il appartient à la famille Lavigne depuis 1890 et est cultivé en agriculture biologique depuis 2009. Les vendanges se font entièrement à la main. Environ 70 % des bouteilles sont vendues à l'étranger, principalement aux États-Unis.",
    claims: [
      ['Toutes les vendanges du domaine sont faites manuellement.', 'supported', 'reworded'],
      [
        "La majorité des bouteilles, environ 70 %, partent à l'export, surtout vers les États-Unis.",
        'supported',
        'reworded',
      ],
      [
        'Le domaine des Coteaux-Rouges appartient à la famille Beaune depuis 1890.',
        'contradicted',
        'entity_swap',
      ],
      ['Le domaine couvre 48 hectares.', 'supported', 'qa_right'],
      ['Le domaine couvre 84 hectares.', 'contradicted', 'qa_wrong'],
      [
        "Propriété des Lavigne depuis 1890, le domaine de 48 hectares au sud de Beaune est en bio depuis 2009. L'essentiel de la production est exporté.",
        'supported',
        'summary_faithful',
      ],
      [
        'Propriété des Lavigne depuis 1890, le domaine de 48 hectares au sud de Beaune est en bio depuis 2009. Les raisins sont récoltés à la machine.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-satellite',
    lang: 'fr',
    passage:
      "Le satellite météorologique Aurore-2 a été lancé le 12 octobre 2022 depuis Kourou. Il observe l'Atlantique Nord depuis une orbite de 820 kilomètres d'altitude. Construit par la société Astrelle, il doit fonctionner au moins sept ans. Ses données servent à prévoir les tempêtes en Europe de l'Ouest.",
    claims: [
      [
        "Les données d'Aurore-2 aident à anticiper les tempêtes en Europe occidentale.",
        'supported',
        'reworded',
      ],
      ["La durée de vie prévue du satellite est d'au moins sept ans.", 'supported', 'reworded'],
      ['Le satellite Aurore-2 a été construit par la société Kourou.', 'contradicted', 'entity_swap'],
      ["Aurore-2 orbite à 820 kilomètres d'altitude.", 'supported', 'qa_right'],
      ["Aurore-2 orbite à 36 000 kilomètres d'altitude.", 'contradicted', 'qa_wrong'],
      [
        "Lancé de Kourou en octobre 2022, le satellite Aurore-2 d'Astrelle surveille l'Atlantique Nord à 820 km d'altitude. Il sert à la prévision des tempêtes.",
        'supported',
        'summary_faithful',
      ],
      [
        "Lancé de Kourou en octobre 2022, le satellite Aurore-2 d'Astrelle surveille l'Atlantique Nord. Il observe surtout le Pacifique Sud.",
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'fr-marche',
    lang: 'fr',
    passage:
      "Le marché couvert de Lestrade a rouvert en avril 2024 après deux ans de travaux. Il abrite 64 étals, dont une vingtaine tenus par des producteurs locaux. Le marché est ouvert du mardi au dimanche, de 7 h à 14 h. La rénovation, confiée à l'architecte Paul Gérin, a conservé la charpente métallique de 1898.",
    claims: [
      ['Une vingtaine des 64 étals sont tenus par des producteurs de la région.', 'supported', 'reworded'],
      ['La charpente métallique datant de 1898 a été gardée lors de la rénovation.', 'supported', 'reworded'],
      [
        "La rénovation du marché de Lestrade a été confiée à l'architecte Paul Lestrade.",
        'contradicted',
        'entity_swap',
      ],
      ['Le marché est ouvert du mardi au dimanche.', 'supported', 'qa_right'],
      ['Le marché est ouvert tous les jours de la semaine.', 'contradicted', 'qa_wrong'],
      [
        "Rouvert en 2024 après deux années de chantier, le marché couvert de Lestrade compte 64 étals. L'architecte Paul Gérin a gardé la charpente de 1898.",
        'supported',
        'summary_faithful',
      ],
      [
        'Rouvert en 2024 après deux années de chantier, le marché couvert de Lestrade compte 64 étals. Il accueille aussi un restaurant étoilé.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
];
