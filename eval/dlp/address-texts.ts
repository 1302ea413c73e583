// Addresses inside sentences, written for this evaluation (US, UK, CH, DE, FR, IT, AT): sentence frames,
// street and town lists and the address layouts of each country are the team's own; values are combined by
// a seeded generator, so the set is the same on every run. Two splits with different frames, streets and
// towns: `dev` may be read while working on the detector, `test` is only scored.
import { int, mulberry32 as rng, pick, type Rng } from './corpus/random.js';

export interface AddressRow {
  split: 'dev' | 'test';
  country: string;
  lang: string;
  layout: string;
  text: string;
  /** The address span; absent in the negative sentences. */
  gold: Array<{ type: 'ADDRESS'; start: number; end: number }>;
}


interface CountryData {
  lang: string;
  streets: Record<'dev' | 'test', string[]>;
  towns: Record<'dev' | 'test', Array<[string, string]>>;
  units: string[];
  layouts: Array<(p: Parts) => [string, string]>;
}

interface Parts {
  street: string;
  no: string;
  unit: string;
  town: string;
  post: string;
  r: Rng;
}

const US: CountryData = {
  lang: 'en',
  streets: {
    dev: ['Maple Avenue', 'Oak Street', 'Sunset Blvd', 'Lincoln Rd', 'Cedar Lane', 'W Lake St', 'Riverside Drive', 'Elm Ct', 'N Main St', 'Harbor View Road'],
    test: ['Pine Street', 'Washington Ave', 'Hillcrest Dr', 'Park Place', 'E 42nd Street', 'Willow Creek Way', 'Jefferson Blvd', 'Magnolia Terrace', 'S Ocean Pkwy', 'Birch Hollow Ln'],
  },
  towns: {
    dev: [['Springfield, IL', '62704'], ['Austin, TX', '78701'], ['Portland, OR', '97205'], ['Columbus, OH', '43215'], ['Denver, CO', '80202']],
    test: [['Madison, WI', '53703'], ['Raleigh, NC', '27601'], ['Tucson, AZ', '85701'], ['Boise, ID', '83702'], ['Albany, NY', '12207']],
  },
  units: ['Apt 4B', 'Suite 210', 'Unit 7', 'Apt. 12', '# 305', 'Ste 1100', '3rd Floor'],
  layouts: [
    (p) => [`${p.no} ${p.street}, ${p.town} ${p.post}`, 'one line'],
    (p) => [`${p.no} ${p.street}, ${p.unit}, ${p.town} ${p.post}`, 'unit'],
    (p) => [`${p.no} ${p.street} ${p.unit}\n${p.town} ${p.post}`, 'multi-line + unit'],
    (p) => [`${p.no} ${p.street}\n${p.town} ${p.post}`, 'multi-line'],
    (p) => [`${p.unit}\n${p.no} ${p.street}\n${p.town} ${p.post}`, 'unit line first'],
    (p) => [`P.O. Box ${int(p.r, 100, 99999)}, ${p.town} ${p.post}`, 'PO box'],
    (p) => [`${p.no} ${p.street}`, 'street only'],
  ],
};

const UK: CountryData = {
  lang: 'en',
  streets: {
    dev: ['High Street', 'Station Road', 'Church Lane', 'Victoria Road', 'Mill Close', 'Queens Crescent', 'Kingsway'],
    test: ['Park Road', 'Green Lane', 'Manor Way', 'London Road', 'Albert Street', 'Orchard Gardens', 'St Mary\u2019s Terrace'],
  },
  towns: {
    dev: [['Leeds', 'LS1 4AP'], ['Bristol', 'BS1 5TR'], ['London', 'SW1A 2AA'], ['Oxford', 'OX1 3BG'], ['Cardiff', 'CF10 1EP']],
    test: [['York', 'YO1 7HH'], ['Bath', 'BA1 1LZ'], ['London', 'EC1N 8QX'], ['Norwich', 'NR2 1TF'], ['Glasgow', 'G2 3DU']],
  },
  units: ['Flat 3', 'Flat 12A', 'Unit 5', 'Apartment 9'],
  layouts: [
    (p) => [`${p.no} ${p.street}, ${p.town} ${p.post}`, 'one line'],
    (p) => [`${p.no} ${p.street}, ${p.town}, ${p.post}`, 'one line'],
    (p) => [`${p.unit}, ${p.no} ${p.street}, ${p.town} ${p.post}`, 'unit'],
    (p) => [`${p.unit}\n${p.no} ${p.street}\n${p.town}\n${p.post}`, 'multi-line + unit'],
    (p) => [`${p.no} ${p.street}\n${p.town} ${p.post}\nUnited Kingdom`, 'multi-line + country'],
  ],
};

function euLayouts(numberFirst: boolean, country: string): CountryData['layouts'] {
  const line = (p: Parts) => (numberFirst ? `${p.no} ${p.street}` : `${p.street} ${p.no}`);
  return [
    (p) => [`${line(p)}, ${p.post} ${p.town}`, 'one line'],
    (p) => [`${line(p)}\n${p.post} ${p.town}`, 'multi-line'],
    (p) => [`${line(p)}, ${p.unit}, ${p.post} ${p.town}`, 'unit'],
    (p) => [`${line(p)}\n${p.unit}\n${p.post} ${p.town}\n${country}`, 'multi-line + unit + country'],
    (p) => [`${line(p)}, ${p.post} ${p.town}, ${country}`, 'country'],
  ];
}

const DE: CountryData = {
  lang: 'de',
  streets: {
    dev: ['Hauptstraße', 'Lindenallee', 'Goethestr.', 'Am Markt', 'Berliner Straße', 'Schillerweg', 'Kirchgasse'],
    test: ['Bahnhofstraße', 'Ringstraße', 'Mozartweg', 'Kastanienallee', 'Im Winkel', 'Frankfurter Allee', 'Uferstraße'],
  },
  towns: {
    dev: [['München', '80331'], ['Hamburg', '20095'], ['Köln', '50667'], ['Leipzig', '04109']],
    test: [['Berlin', '10115'], ['Dresden', '01067'], ['Stuttgart', '70173'], ['Bremen', '28195']],
  },
  units: ['2. OG', 'Whg. 4', 'Hinterhaus', 'c/o Weber'],
  layouts: euLayouts(false, 'Deutschland'),
};
// "Hinterhaus" and "c/o Weber" are no unit form the detector knows; kept as they are written.

const AT: CountryData = {
  lang: 'de',
  streets: {
    dev: ['Mariahilfer Straße', 'Landstraßer Hauptstraße', 'Herrengasse', 'Getreidegasse'],
    test: ['Kärntner Straße', 'Linzer Gasse', 'Praterstraße', 'Eduard-Sueß-Gasse'],
  },
  towns: {
    dev: [['Wien', '1060'], ['Graz', '8010'], ['Salzburg', '5020']],
    test: [['Wien', '1150'], ['Linz', '4020'], ['Innsbruck', '6020']],
  },
  units: ['Stiege 2', 'Top 7', 'Tür 12'],
  layouts: euLayouts(false, 'Österreich'),
};

const CH: CountryData = {
  lang: 'de',
  streets: {
    dev: ['Seestrasse', 'Dorfstrasse', 'Rue du Lac', 'Via Nassa', 'Rämistrasse', 'Chemin des Vignes'],
    test: ['Bahnhofstrasse', 'Zürichstrasse', 'Rue de Lausanne', 'Via Cantonale', 'Spitalgasse', 'Avenue de la Gare'],
  },
  towns: {
    dev: [['Zürich', '8001'], ['Vevey', '1800'], ['Lugano', '6900'], ['Luzern', '6003']],
    test: [['Bern', '3011'], ['Genève', '1201'], ['Bellinzona', '6500'], ['Basel', '4051']],
  },
  units: ['Postfach 12', '3. Stock', 'Case postale 45'],
  layouts: euLayouts(false, 'Schweiz'),
};

const FR: CountryData = {
  lang: 'fr',
  streets: {
    dev: ['rue de la Paix', 'avenue Victor Hugo', 'boulevard Voltaire', 'place du Marché', 'chemin des Écoliers', 'rue des Lilas'],
    test: ['rue du Faubourg Saint-Antoine', 'avenue Jean Jaurès', 'allée des Tilleuls', 'impasse du Moulin', 'quai de la Loire', 'boulevard de la République'],
  },
  towns: {
    dev: [['Paris', '75002'], ['Lyon', '69003'], ['Toulouse', '31000'], ['Nantes', '44000']],
    test: [['Marseille', '13001'], ['Lille', '59800'], ['Bordeaux', '33000'], ['Strasbourg', '67000']],
  },
  units: ['Appartement 12', 'Bât. B', '3e étage', 'Esc. A'],
  layouts: euLayouts(true, 'France'),
};

const IT: CountryData = {
  lang: 'it',
  streets: {
    dev: ['Via Roma', 'Corso Vittorio Emanuele', 'Piazza Garibaldi', 'Via dei Mille', 'Viale Monza', 'Via della Spiga'],
    test: ['Via Nazionale', 'Corso Buenos Aires', 'Piazza della Repubblica', 'Via San Francesco', 'Viale dei Pini', 'Largo Augusto'],
  },
  towns: {
    dev: [['Milano MI', '20121'], ['Roma RM', '00184'], ['Torino TO', '10121'], ['Bologna BO', '40121']],
    test: [['Napoli NA', '80133'], ['Firenze FI', '50123'], ['Genova GE', '16121'], ['Verona VR', '37121']],
  },
  units: ['interno 5', 'scala B', 'piano 2'],
  layouts: euLayouts(false, 'Italia'),
};

const COUNTRIES: Record<string, CountryData> = { US, UK, CH, DE, FR, IT, AT };

// Sentence frames per language; {A} is the address. Dev and test frames differ.
const FRAMES: Record<string, Record<'dev' | 'test', string[]>> = {
  en: {
    dev: [
      'Please send the replacement card to {A} as soon as possible.',
      'My new address is {A}.',
      'Ship to:\n{A}\nThank you!',
      'The customer lives at {A} and asked for a callback.',
      'Can you draft a letter to the tenant at {A} about the rent increase?',
    ],
    test: [
      'Deliver the parcel to {A}, the side entrance is open.',
      'We moved last month; the lease is for {A}.',
      'Billing address:\n{A}\n\nPayment terms: 30 days.',
      'Her mailing address ({A}) is on the form.',
      'Write a complaint on behalf of the resident of {A} regarding the noise.',
    ],
  },
  de: {
    dev: [
      'Bitte schicken Sie die Unterlagen an {A}.',
      'Meine neue Anschrift lautet {A}.',
      'Lieferadresse:\n{A}\nVielen Dank!',
      'Der Mieter wohnt in der {A} und bittet um Rückruf.',
    ],
    test: [
      'Die Rechnung geht an {A}, bitte mit Vermerk.',
      'Wir sind umgezogen, neu: {A}.',
      'Zustellung an\n{A}\n\nMit freundlichen Grüssen',
      'Können Sie einen Brief an {A} formulieren?',
    ],
  },
  fr: {
    dev: [
      'Merci d’envoyer la carte au {A}.',
      'Ma nouvelle adresse : {A}.',
      'Adresse de livraison :\n{A}\nMerci !',
      'Le client habite au {A} et souhaite être rappelé.',
    ],
    test: [
      'Le colis doit être livré au {A} avant vendredi.',
      'Nous avons déménagé, voici l’adresse : {A}.',
      'Facturation :\n{A}\n\nCordialement',
      'Rédige une lettre pour le locataire du {A}.',
    ],
  },
  it: {
    dev: [
      'Per favore spedisca i documenti a {A}.',
      'Il mio nuovo indirizzo è {A}.',
      'Indirizzo di consegna:\n{A}\nGrazie!',
      'Il cliente abita in {A} e chiede di essere richiamato.',
    ],
    test: [
      'La fattura va intestata a {A}, grazie.',
      'Ci siamo trasferiti: {A}.',
      'Spedire a\n{A}\n\nCordiali saluti',
      'Scrivi una lettera al condomino di {A}.',
    ],
  },
};

const LANG_OF_COUNTRY: Record<string, string[]> = {
  US: ['en'],
  UK: ['en'],
  DE: ['de'],
  AT: ['de'],
  CH: ['de', 'fr', 'it'],
  FR: ['fr'],
  IT: ['it'],
};

// Sentences with numbers, capitalised words and street-like words that hold no address.
const NEGATIVES: Record<string, string[]> = {
  en: [
    'We walked 3 blocks down the road and then took the 5 Park Avenue shuttle bus.',
    'Chapter 12 Main Street Economics covers small business lending.',
    'Order 44512 for Berlin Ltd shipped on 12 March in 3 boxes.',
    'Version 2.4 of the Station app fixes 17 bugs.',
    'The 2 Lakes Conference runs from 10 to 12 June in Room 5.',
    'He scored 21 points and the Lakers won 102 to 99.',
    'Read pages 10 to 25 of the Oxford Handbook before Friday.',
  ],
  de: [
    'Die Sitzung dauert 2 Stunden, Raum 14, Gebäude Nord.',
    'Bestellung 12345 über 3 Stück wurde am 4. Mai versandt.',
    'Im Jahr 2019 zogen 1500 Menschen nach Berlin.',
    'Version 3.2 enthält 12 neue Funktionen für den Markt.',
  ],
  fr: [
    'La réunion a lieu le 12 mars à 14 heures, salle 3.',
    'La commande 45871 comprend 3 articles et un Guide Paris.',
    'En 2020, 1500 personnes ont visité le salon de Lyon.',
  ],
  it: [
    'La riunione è fissata per il 12 marzo alle 14, sala 3.',
    "L'ordine 45871 contiene 3 articoli e una Guida Roma.",
    'Nel 2021 sono arrivati 1500 visitatori a Milano.',
  ],
};

export function addressTexts(split: 'dev' | 'test', perCountry = 60): AddressRow[] {
  const r = rng(split === 'dev' ? 101 : 202);
  const rows: AddressRow[] = [];
  for (const [country, data] of Object.entries(COUNTRIES)) {
    for (let n = 0; n < perCountry; n++) {
      const [town, post] = pick(r, data.towns[split]);
      const parts: Parts = {
        street: pick(r, data.streets[split]),
        no: String(int(r, 1, country === 'US' ? 9999 : 180)) + (r() < 0.15 ? (country === 'FR' ? ' bis' : 'a') : ''),
        unit: pick(r, data.units),
        town,
        post: country === 'CH' || country === 'AT' ? post : post,
        r,
      };
      const [address, layout] = pick(r, data.layouts)(parts);
      const lang = pick(r, LANG_OF_COUNTRY[country]!);
      const frame = pick(r, FRAMES[lang]![split]);
      const at = frame.indexOf('{A}');
      const text = frame.replace('{A}', address);
      rows.push({ split, country, lang, layout, text, gold: [{ type: 'ADDRESS', start: at, end: at + address.length }] });
    }
  }
  for (const [lang, sentences] of Object.entries(NEGATIVES)) {
    for (const text of sentences) rows.push({ split, country: '-', lang, layout: 'negative', text, gold: [] });
  }
  return rows;
}
