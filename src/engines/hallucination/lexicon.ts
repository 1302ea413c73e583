import { fold, STOPWORDS } from './text.js';

const words = (s: string): string[] => s.trim().split(/\s+/).map(fold);

/** Single-word negation cues (EN/FR/DE). French "ne/n'" is handled in polarity.ts. */
/**
 * Prohibitions negate a permission: "fishing is banned" says what "nobody may fish" says, and "swimming is
 * allowed" contradicts "swimming is forbidden". Counted as negation cues so that the two readings agree.
 */
const PROHIBITIONS = `banned prohibited forbidden
  interdit interdite interdits interdites
  verboten untersagt`;

/**
 * Words that only name the dimension of a measurement next to them: "86 kilometres long", "longue de 11
 * kilomètres", "6,8 Kilometer lang", "measures 3.2 metres". The unit already says it; a source that gives the
 * measurement in other words ("flows 86 kilometres") states the same.
 */
export const DIMENSION_WORDS: ReadonlySet<string> = new Set(
  words(`long length deep depth high height tall wide width thick measures measuring measure
  longue longs longues longueur profond profonde profondeur haut haute hauteur large largeur épais épaisseur
  mesure mesurant mesurent
  lang lange langen langer länge tief tiefe tiefen höhe hoch hohe breit breite dick dicke misst`),
);

/**
 * Verb and noun forms of prohibitions, counted as negation cues with the agreement only (CheckOptions.agreement,
 * off by default; polarity.ts agreementNegations): "the law forbids fishing" negates "fishing is allowed".
 */
export const AGREEMENT_PROHIBITIONS: ReadonlySet<string> = new Set(
  words(`forbids forbid forbade prohibits interdisent interdiction verbietet verbieten untersagen`),
);

export const NEGATION_WORDS: ReadonlySet<string> = new Set(
  words(`not no never none nobody nothing neither nor without cannot
  jamais aucun aucune sans rien nullement
  nicht kein keine keinen keinem keiner keines nie niemals ohne nichts weder niemand
  ${PROHIBITIONS}`),
);

/**
 * Antonym pairs, matched on folded word prefixes so inflections count ("increased", "augmentée").
 * Curated rather than WordNet: the pairs that flip the meaning of factual claims in business and science text.
 */
const ANTONYM_PAIRS: Array<[string, string]> = [
  ['increas', 'decreas'],
  ['rise', 'fall'],
  ['rose', 'fell'],
  ['grow', 'shrink'],
  ['gain', 'los'],
  ['higher', 'lower'],
  ['more', 'fewer'],
  ['larger', 'smaller'],
  ['largest', 'smallest'],
  ['biggest', 'smallest'],
  ['faster', 'slower'],
  ['earlier', 'later'],
  ['allow', 'forbid'],
  ['allow', 'prohibit'],
  ['permit', 'prohibit'],
  ['includ', 'exclud'],
  ['open', 'clos'],
  ['accept', 'reject'],
  ['approv', 'reject'],
  ['win', 'lose'],
  ['won', 'lost'],
  ['first', 'last'],
  ['north', 'south'],
  ['east', 'west'],
  ['maximum', 'minimum'],
  ['public', 'private'],
  ['success', 'fail'],
  ['profit', 'loss'],
  ['hire', 'fire'],
  ['buy', 'sell'],
  ['bought', 'sold'],
  ['import', 'export'],
  ['cheaper', 'more expensive'],
  ['safe', 'danger'],
  ['legal', 'illegal'],
  ['effective', 'ineffective'],
  ['increase', 'reduce'],
  ['increas', 'reduc'],
  ['improv', 'worsen'],
  ['male', 'female'],
  ['born', 'died'],
  ['augment', 'diminu'],
  ['hausse', 'baisse'],
  ['autoris', 'interdit'],
  ['inclu', 'exclu'],
  ['ouvert', 'ferme'],
  ['premier', 'dernier'],
  ['premiere', 'derniere'],
  ['nord', 'sud'],
  ['gagn', 'perd'],
  ['achet', 'vend'],
  ['accept', 'refus'],
  ['plus rapide', 'plus lent'],
  ['public', 'prive'],
  ['benefice', 'perte'],
  ['import', 'export'],
  ['stieg', 'sank'],
  ['gestiegen', 'gesunken'],
  ['steig', 'sink'],
  ['erhoh', 'gesenkt'],
  ['eroffne', 'schloss'],
  ['ouvr', 'ferm'],
  ['opened', 'closed'],
  ['erhoh', 'verringer'],
  ['zunahm', 'abnahm'],
  ['zugenommen', 'abgenommen'],
  ['mehr', 'weniger'],
  ['hoher', 'niedriger'],
  ['grosste', 'kleinste'],
  ['schneller', 'langsamer'],
  ['erlaubt', 'verboten'],
  ['zugelassen', 'verboten'],
  ['enthalten', 'ausgeschlossen'],
  ['abgedeckt', 'ausgeschlossen'],
  ['geoffnet', 'geschlossen'],
  ['erste', 'letzte'],
  ['ersten', 'letzten'],
  ['nord', 'sud'],
  ['gewonnen', 'verloren'],
  ['gewinn', 'verlust'],
  ['kauf', 'verkauf'],
  ['offentlich', 'privat'],
  ['angenommen', 'abgelehnt'],
  ['eingestellt', 'entlassen'],
];

export const ANTONYMS: ReadonlyArray<readonly [string, string]> = ANTONYM_PAIRS.map(
  ([a, b]) => [fold(a), fold(b)] as const,
);

/**
 * More opposites, whose negative side a claim often says with a negation ("costs nothing" for "free", "not
 * required" for "optional"), with the agreement of align.ts only (CheckOptions.agreement, off by default):
 * there a negation and a split pair cancel, and either alone is a conflict.
 */
const AGREEMENT_PAIRS: Array<[string, string]> = [
  ['free', 'pay'],
  ['free', 'paid'],
  ['free', 'cost'],
  ['continu', 'discontinu'],
  ['continu', 'ceas'],
  ['requir', 'optional'],
  ['mandatory', 'optional'],
  ['compulsory', 'optional'],
  ['alive', 'dead'],
  ['confirm', 'denied'],
  ['confirm', 'denies'],
  ['remember', 'forgot'],
  ['gratuit', 'payant'],
  ['gratuit', 'payer'],
  ['gratuit', 'paye'],
  ['gratuit', 'paie'],
  ['gratuit', 'paient'],
  ['gratuit', 'coute'],
  ['gratuit', 'cout'],
  ['obligatoire', 'facultati'],
  ['obligatoire', 'optionnel'],
  ['reussi', 'echou'],
  ['confirm', 'dementi'],
  ['vivant', 'decede'],
  ['maintenu', 'supprim'],
  ['kostenlos', 'kostet'],
  ['kostenlos', 'bezahl'],
  ['kostenlos', 'zahlt'],
  ['gratis', 'kostet'],
  ['gratis', 'bezahl'],
  ['umsonst', 'kostet'],
  ['freie', 'kostet'],
  ['freie', 'bezahl'],
  ['frei', 'kostet'],
  ['pflicht', 'freiwillig'],
  ['verpflichtend', 'freiwillig'],
  ['obligatorisch', 'freiwillig'],
  ['erfolgreich', 'gescheitert'],
  ['bestatigt', 'dementiert'],
  ['lebend', 'gestorben'],
];

/** ANTONYMS followed by AGREEMENT_PAIRS: pair i < ANTONYMS.length is a shipped pair. */
export const ALL_ANTONYMS: ReadonlyArray<readonly [string, string]> = [
  ...ANTONYMS,
  ...AGREEMENT_PAIRS.map(([a, b]) => [fold(a), fold(b)] as const),
];

/** Quantifier and frequency classes; a claim and its evidence in different classes of one scale conflict. */
export interface ScaleClass {
  scale: 'quantity' | 'frequency' | 'modality';
  cls: string;
  phrases: string[];
}

export const SCALES: ScaleClass[] = [
  {
    scale: 'quantity',
    cls: 'all',
    phrases: words('all every each alle jeder jede jedes sämtliche tous toutes chaque'),
  },
  {
    scale: 'quantity',
    cls: 'some',
    phrases: [
      ...words('some several certain few einige manche mehrere wenige quelques certains certaines plusieurs'),
      'a few',
    ],
  },
  {
    scale: 'quantity',
    cls: 'most',
    phrases: [...words('most meisten'), 'la plupart', 'majority', 'majorité'].map(fold),
  },
  {
    scale: 'quantity',
    cls: 'only',
    phrases: words('only solely exclusively nur ausschließlich seulement uniquement'),
  },
  {
    scale: 'frequency',
    cls: 'often',
    phrases: [
      ...words(
        'often frequently usually commonly always regularly häufig oft meistens immer regelmäßig souvent fréquemment toujours régulièrement habituellement',
      ),
    ],
  },
  {
    scale: 'frequency',
    cls: 'rarely',
    phrases: [
      ...words(
        'rarely seldom occasionally sometimes selten gelegentlich manchmal rarement parfois occasionnellement',
      ),
      'in seltenen fällen',
      'in rare cases',
      'dans de rares cas',
    ].map(fold),
  },
  {
    scale: 'modality',
    cls: 'must',
    phrases: [
      ...words('must required mandatory obligatory muss müssen pflicht obligatoire doit doivent'),
      'have to',
      'has to',
    ].map(fold),
  },
  {
    scale: 'modality',
    cls: 'may',
    phrases: [...words('may optional can kann können darf dürfen optionnel facultatif peut peuvent')].map(
      fold,
    ),
  },
];

/** Cues that make a number approximate, widening the tolerance for a match. */
export const APPROX_CUES = [
  'about',
  'around',
  'roughly',
  'approximately',
  'nearly',
  'almost',
  'some',
  'close to',
  'just under',
  'just over',
  'an estimated',
  'environ',
  'près de',
  'presque',
  'quelque',
  'autour de',
  'à peu près',
  'etwa',
  'rund',
  'ungefähr',
  'fast',
  'knapp',
  'circa',
  'ca.',
  'gut',
  'beinahe',
  '~',
].map(fold);

/** Cues that turn a number into a bound. */
export const LOWER_BOUND_CUES = [
  'at least',
  'more than',
  'over',
  'above',
  'exceeding',
  'in excess of',
  'minimum of',
  'minimum',
  'au moins',
  'plus de',
  'au minimum',
  'supérieur à',
  'mindestens',
  'mehr als',
  'über',
  'wenigstens',
  'minimal',
].map(fold);
export const UPPER_BOUND_CUES = [
  'up to',
  'at most',
  'less than',
  'fewer than',
  'under',
  'below',
  'no more than',
  'maximum of',
  'maximum',
  'jusqu’à',
  "jusqu'à",
  'au plus',
  'moins de',
  'au maximum',
  'inférieur à',
  'bis zu',
  'höchstens',
  'weniger als',
  'unter',
  'maximal',
].map(fold);

/** Synonym groups: paraphrases in the claim that name the same thing as the source. */
const SYNONYM_GROUPS: string[] = [
  'employees staff workers people employ personnel headcount',
  'salariés employés collaborateurs personnes effectif',
  'mitarbeiter mitarbeitende beschäftigte angestellte personen belegschaft menschen',
  'founded established created set launched started',
  'fondé fondée créé créée lancé lancée',
  'gegründet gründete',
  'company firm enterprise corporation',
  'entreprise société firme groupe',
  'unternehmen firma konzern gesellschaft',
  'buy purchase acquire bought purchased acquired',
  'achète acheté acquiert acquis racheté rachète',
  'kauft kaufte gekauft übernahm übernommen erwarb erworben',
  'revenue sales turnover',
  'chiffre ventes',
  'umsatz erlöse',
  'big large huge',
  'small little tiny',
  'start begin commence',
  'end finish conclude',
  'city town',
  'ville commune',
  'stadt gemeinde',
  'car vehicle automobile',
  'voiture véhicule',
  'auto fahrzeug wagen',
  'doctor physician',
  'médecin docteur',
  'arzt ärztin',
  'build construct built constructed',
  'construit bâti construite',
  'gebaut errichtet erbaut',
  'cost price costs priced',
  'coûte prix coût',
  'kostet preis kosten',
  'opened inaugurated',
  'ouvert inauguré inaugurée ouverte',
  'eröffnet eingeweiht',
  'located situated based headquartered',
  'situé située basé basée implanté',
  'sitz ansässig liegt befindet',
  'patients participants subjects',
  'study trial research',
  'étude essai recherche',
  'studie untersuchung',
  'lasts takes',
  'dure prend',
  'dauert',
  'produces makes manufactures',
  'produit fabrique',
  'produziert herstellt stellt fertigt',
  'won earned',
  'remporté gagné obtenu reçu décroché',
  'gewann gewonnen',
  // French and German words of factual text that say the same thing (no maintained fr/de resource ships in
  // npm under a permissive licence, see docs/hallucination.md); English has WordNet.
  'livre roman ouvrage',
  'publié publiée publiés paru parue parus sorti sortie',
  'dirigé dirigée dirige dirigent diriger directeur directrice',
  'financé financée financés financées payé payée payés',
  'conçu conçue dessiné dessinée',
  'rénovation rénové rénovée restauration restauré restaurée réhabilitation',
  'rouvert rouverte réouverture',
  'terminé terminée achevé achevée fini finie',
  'commencé commencée débuté démarré',
  'voyageurs passagers',
  'élèves étudiants',
  'bâtiment édifice immeuble',
  'navire bateau',
  'prévoir prévision prévisions anticiper',
  'occidental occidentale ouest',
  'oriental orientale',
  'méridional méridionale sud',
  'septentrional septentrionale nord',
  'gratuit gratuite gratuits gratuites',
  'habitants résidents',
  'décédé décédée décès mort morte',
  'annuel annuelle annuellement année années',
  'veröffentlicht veröffentlichte publiziert erschien erschienen',
  'leitet leitete geleitet leiterin leiter führt führte geführt',
  'erhielt erhält bekam bekommt bekommen',
  'besitzt verfügt umfasst zählt',
  'besucher gäste',
  'teilnehmer probanden patienten',
  'kostenlos gratis umsonst',
  'jährlich jährliche jährlichen jahr jahres',
  'gesenkt senkte senkt verringert verringerte reduziert reduzierte',
  'entworfen gestaltet',
  'saniert renoviert modernisiert',
  'nisten brüten',
];

/**
 * Word forms the stemmer cannot join: irregular verbs (lemma first). Regular forms need no entry (stems and
 * prefix/suffix matching join "gründete"/"gegründet", "fondée"/"fondé"). English forms whose spelling is
 * another word ("found" of find, "left", "saw", "lay") are left out, and so is French "né" (folded, the
 * negation particle "ne").
 */
const WORD_FORM_GROUPS: string[] = [
  // English
  'write wrote written',
  'begin began begun',
  'give gave given',
  'take took taken',
  'hold held',
  'sell sold',
  'make made',
  'lose lost',
  'grow grew grown',
  'lead led',
  'teach taught',
  'speak spoke spoken',
  'sing sang sung',
  'drive drove driven',
  'fly flew flown',
  'draw drew drawn',
  'choose chose chosen',
  'steal stole stolen',
  'fight fought',
  'bring brought',
  'catch caught',
  'send sent',
  'spend spent',
  'meet met',
  'keep kept',
  'stand stood',
  'understand understood',
  'tell told',
  'know knew known',
  'throw threw thrown',
  'become became',
  'come came',
  'pay paid',
  'strike struck',
  'wear wore worn',
  'shake shook shaken',
  'flee fled',
  'hear heard',
  'sink sank sunk',
  'swim swam swum',
  'freeze froze frozen',
  'hide hid hidden',
  'eat ate eaten',
  'seek sought',
  'rise risen',
  'fall fell fallen',
  'run ran',
  'win won',
  'beat beaten',
  'forget forgot forgotten',
  'ride rode ridden',
  'shoot shot',
  // German
  'schreiben schrieb schrieben geschrieben',
  'entwerfen entwarf entwarfen entworfen',
  'gewinnen gewann gewannen gewonnen',
  'beginnen begann begannen begonnen',
  'finden fand fanden gefunden',
  'steigen stieg stiegen gestiegen',
  'sinken sank sanken gesunken',
  'verlieren verlor verloren',
  'halten hielt hielten gehalten',
  'nehmen nahm nahmen genommen',
  'geben gab gaben gegeben',
  'kommen kam kamen gekommen',
  'sterben starb starben gestorben',
  'gebären gebar geboren',
  'ziehen zog zogen gezogen',
  'bringen brachte brachten gebracht',
  'fahren fuhr fuhren gefahren',
  'fliegen flog flogen geflogen',
  'treffen traf trafen getroffen',
  'sprechen sprach sprachen gesprochen',
  'tragen trug trugen getragen',
  'wachsen wuchs wuchsen gewachsen',
  'erfinden erfand erfanden erfunden',
  'verlassen verließ verließen',
  'schließen schloss schlossen geschlossen',
  'beschließen beschloss beschlossen',
  'erhalten erhielt erhielten',
  'bleiben blieb blieben geblieben',
  'stehen stand standen gestanden',
  'lesen las lasen gelesen',
  'singen sang sangen gesungen',
  'schlagen schlug schlugen geschlagen',
  'erscheinen erschien erschienen',
  'gelten galt galten gegolten',
  'betragen betrug betrugen',
  'nennen nannte nannten genannt',
  'ernennen ernannte ernannten ernannt',
  'laufen lief liefen gelaufen',
  'fallen fiel fielen gefallen',
  'unterschreiben unterschrieb unterschrieben',
  'verbringen verbrachte verbracht',
  'leiten leitete geleitet',
  'liegen lagen gelegen',
  // French
  'naître née nés nées naquit',
  'écrire écrit écrite écrits écrivit',
  'construire construit construite construits construisit',
  'prendre pris prise prit',
  'mettre mis mise mit',
  'ouvrir ouvre ouvrit',
  'mourir mort morte mourut meurt',
  'vendre vendu vendue vendit vend',
  'perdre perdu perdue perdit perd',
  'venir venu venue vint',
  'devenir devenu devenue devint devient',
  'tenir tenu tenue tint',
  'obtenir obtenu obtenue obtint',
  'recevoir reçu reçue reçut',
  'découvrir découvert découverte découvrit',
  'offrir offert offerte offrit',
  'produire produit produite produisit',
  'conduire conduit conduite conduisit',
  'traduire traduit traduite traduisit',
  'peindre peint peinte peignit',
  'battre battu battue battit',
  'élire élu élue élut',
  'atteindre atteint atteinte atteignit',
  'rejoindre rejoint rejointe rejoignit',
  'vaincre vaincu vaincue vainquit',
  'décrire décrit décrite',
  'inscrire inscrit inscrite',
  'suivre suivi suivie suivit',
];

export const SYNONYMS: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const g of SYNONYM_GROUPS) {
    const ws = words(g);
    const head = ws[0]!;
    for (const w of ws) m.set(w, head);
  }
  // A form already in a synonym group takes the whole group of forms there ("won" joins "earned").
  for (const g of WORD_FORM_GROUPS) {
    const ws = words(g).filter((w) => !STOPWORDS.has(w));
    const head = ws.map((w) => m.get(w)).find((h) => h !== undefined) ?? ws[0];
    if (head !== undefined) for (const w of ws) if (!m.has(w)) m.set(w, head);
  }
  return m;
})();

export const MONTHS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  const lists = [
    'january february march april may june july august september october november december',
    'janvier février mars avril mai juin juillet août septembre octobre novembre décembre',
    'januar februar märz april mai juni juli august september oktober november dezember',
    'jan feb mar apr may jun jul aug sep oct nov dec',
    'janv févr mars avr mai juin juil août sept oct nov déc',
    'jänner feb mär apr mai jun jul aug sept okt nov dez',
  ];
  for (const l of lists) {
    for (const [i, w] of words(l).entries()) m.set(w, i + 1);
  }
  return m;
})();

export const NUMBER_WORDS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  const add = (list: string, start = 0) => {
    for (const [i, w] of words(list).entries()) m.set(w, start + i);
  };
  add(
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty',
  );
  add('zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize');
  add(
    'null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig',
  );
  for (const [w, v] of [
    ['une', 1],
    ['ein', 1],
    ['eine', 1],
    ['einen', 1],
    ['zwo', 2],
    ['thirty', 30],
    ['forty', 40],
    ['fifty', 50],
    ['sixty', 60],
    ['seventy', 70],
    ['eighty', 80],
    ['ninety', 90],
    ['vingt', 20],
    ['trente', 30],
    ['quarante', 40],
    ['cinquante', 50],
    ['soixante', 60],
    ['dreißig', 30],
    ['vierzig', 40],
    ['fünfzig', 50],
    ['sechzig', 60],
    ['siebzig', 70],
    ['achtzig', 80],
    ['neunzig', 90],
    // Plural forms ("quatre-vingts", "deux cents") and the Belgian/Swiss tens.
    ['vingts', 20],
    ['cents', 100],
    ['septante', 70],
    ['huitante', 80],
    ['octante', 80],
    ['nonante', 90],
    ['dozen', 12],
    ['douzaine', 12],
    ['dutzend', 12],
    ['hundred', 100],
    ['cent', 100],
    ['hundert', 100],
    ['thousand', 1000],
    ['mille', 1000],
    ['tausend', 1000],
  ] as const)
    m.set(fold(w), v);
  return m;
})();

/** Multipliers written after a number ("1.5 million", "2,5 Mrd."). */
export const SCALE_WORDS: ReadonlyMap<string, number> = new Map(
  (
    [
      ['thousand', 1e3],
      ['k', 1e3],
      ['mille', 1e3],
      ['tausend', 1e3],
      ['million', 1e6],
      ['millions', 1e6],
      ['mn', 1e6],
      ['mio', 1e6],
      ['millionen', 1e6],
      ['billion', 1e9],
      ['billions', 1e9],
      ['bn', 1e9],
      ['milliard', 1e9],
      ['milliards', 1e9],
      ['mrd', 1e9],
      ['md', 1e9],
      ['milliarde', 1e9],
      ['milliarden', 1e9],
      ['trillion', 1e12],
      ['billionen', 1e12],
    ] as const
  ).map(([w, v]) => [fold(w), v]),
);

export const ORDINAL_WORDS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  const add = (list: string) => {
    for (const [i, w] of words(list).entries()) m.set(w, i + 1);
  };
  add('first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth');
  add('premier deuxième troisième quatrième cinquième sixième septième huitième neuvième dixième');
  add('erste zweite dritte vierte fünfte sechste siebte achte neunte zehnte');
  for (const [w, v] of [
    ['première', 1],
    ['second', 2],
    ['seconde', 2],
    ['ersten', 1],
    ['erster', 1],
    ['erstes', 1],
    ['zweiten', 2],
    ['dritten', 3],
    ['vierten', 4],
    ['fünften', 5],
  ] as const)
    m.set(fold(w), v);
  return m;
})();

/** Units: a dimension and the factor to that dimension's base unit (linear units only; °F is special-cased). */
export interface Unit {
  dim: string;
  factor: number;
}
const UNIT_LIST: Array<[string, string, number]> = [
  ['km', 'length', 1000],
  ['kilometres', 'length', 1000],
  ['kilometers', 'length', 1000],
  ['kilometre', 'length', 1000],
  ['kilometer', 'length', 1000],
  ['kilomètres', 'length', 1000],
  ['m', 'length', 1],
  ['metres', 'length', 1],
  ['meters', 'length', 1],
  ['mètres', 'length', 1],
  ['meter', 'length', 1],
  ['metre', 'length', 1],
  ['cm', 'length', 0.01],
  ['mm', 'length', 0.001],
  ['miles', 'length', 1609.344],
  ['mile', 'length', 1609.344],
  ['mi', 'length', 1609.344],
  ['feet', 'length', 0.3048],
  ['ft', 'length', 0.3048],
  ['kg', 'mass', 1],
  ['kilograms', 'mass', 1],
  ['kilogrammes', 'mass', 1],
  ['kilogramm', 'mass', 1],
  ['g', 'mass', 0.001],
  ['grams', 'mass', 0.001],
  ['grammes', 'mass', 0.001],
  ['gramm', 'mass', 0.001],
  ['mg', 'mass', 1e-6],
  ['t', 'mass', 1000],
  ['tonnes', 'mass', 1000],
  ['tons', 'mass', 1000],
  ['tonnen', 'mass', 1000],
  ['lb', 'mass', 0.45359237],
  ['lbs', 'mass', 0.45359237],
  ['pounds', 'mass', 0.45359237],
  ['l', 'volume', 1],
  ['litres', 'volume', 1],
  ['liters', 'volume', 1],
  ['liter', 'volume', 1],
  ['litre', 'volume', 1],
  ['ml', 'volume', 0.001],
  ['%', 'percent', 1],
  ['percent', 'percent', 1],
  ['per cent', 'percent', 1],
  ['pour cent', 'percent', 1],
  ['prozent', 'percent', 1],
  ['°c', 'temp', 1],
  ['degrees', 'temp', 1],
  ['degrés', 'temp', 1],
  ['grad', 'temp', 1],
  ['km/h', 'speed', 1],
  ['mph', 'speed', 1.609344],
  ['€', 'eur', 1],
  ['eur', 'eur', 1],
  ['euro', 'eur', 1],
  ['euros', 'eur', 1],
  ['$', 'usd', 1],
  ['usd', 'usd', 1],
  ['dollars', 'usd', 1],
  ['dollar', 'usd', 1],
  ['£', 'gbp', 1],
  ['gbp', 'gbp', 1],
  ['chf', 'chf', 1],
  ['francs', 'chf', 1],
  ['franken', 'chf', 1],
  ['seconds', 'time', 1],
  ['secondes', 'time', 1],
  ['sekunden', 'time', 1],
  ['s', 'time', 1],
  ['minutes', 'time', 60],
  ['minute', 'time', 60],
  ['minuten', 'time', 60],
  ['min', 'time', 60],
  ['hours', 'time', 3600],
  ['hour', 'time', 3600],
  ['h', 'time', 3600],
  ['heures', 'time', 3600],
  ['heure', 'time', 3600],
  ['stunden', 'time', 3600],
  ['stunde', 'time', 3600],
  ['days', 'time', 86400],
  ['day', 'time', 86400],
  ['jours', 'time', 86400],
  ['jour', 'time', 86400],
  ['tage', 'time', 86400],
  ['tagen', 'time', 86400],
  ['tag', 'time', 86400],
  ['weeks', 'time', 604800],
  ['week', 'time', 604800],
  ['semaines', 'time', 604800],
  ['semaine', 'time', 604800],
  ['wochen', 'time', 604800],
  ['woche', 'time', 604800],
  ['months', 'time', 2629800],
  ['month', 'time', 2629800],
  ['mois', 'time', 2629800],
  ['monate', 'time', 2629800],
  ['monaten', 'time', 2629800],
  ['monat', 'time', 2629800],
  ['years', 'time', 31557600],
  ['year', 'time', 31557600],
  ['ans', 'time', 31557600],
  ['années', 'time', 31557600],
  ['an', 'time', 31557600],
  ['jahre', 'time', 31557600],
  ['jahren', 'time', 31557600],
  ['jahr', 'time', 31557600],
  ['gb', 'data', 1e9],
  ['mb', 'data', 1e6],
  ['tb', 'data', 1e12],
  ['kb', 'data', 1e3],
  ['w', 'power', 1],
  ['kw', 'power', 1e3],
  ['mw', 'power', 1e6],
  ['gw', 'power', 1e9],
  ['kwh', 'energy', 1],
  ['mwh', 'energy', 1e3],
  ['gwh', 'energy', 1e6],
  ['db', 'db', 1],
  ['db(a)', 'db', 1],
  ['hectares', 'area', 1e4],
  ['ha', 'area', 1e4],
  ['km²', 'area', 1e6],
  ['km2', 'area', 1e6],
  ['m²', 'area', 1],
  ['m2', 'area', 1],
];

export const UNITS: ReadonlyMap<string, Unit> = new Map(
  UNIT_LIST.map(([w, dim, factor]) => [fold(w), { dim, factor }]),
);
