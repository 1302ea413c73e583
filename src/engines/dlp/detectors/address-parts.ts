// The parts street addresses are made of in the countries served (US, UK, CH, DE, FR, IT, AT): street
// types per language, unit words, US states, country names, and the postcode format of each country.

// USPS Publication 28, appendix C1 (street suffixes) with their standard abbreviations, plus British ones.
export const EN_STREET_TYPES = [
  'Street', 'St', 'Avenue', 'Ave', 'Av', 'Road', 'Rd', 'Lane', 'Ln', 'Drive', 'Dr', 'Boulevard', 'Blvd', 'Way',
  'Court', 'Ct', 'Place', 'Pl', 'Square', 'Sq', 'Terrace', 'Ter', 'Terr', 'Close', 'Crescent', 'Cres', 'Gardens',
  'Gdns', 'Parkway', 'Pkwy', 'Pkway', 'Highway', 'Hwy', 'Hgwy', 'Circle', 'Cir', 'Trail', 'Trl', 'Alley', 'Aly', 'Plaza',
  'Plz', 'Loop', 'Path', 'Pike', 'Row', 'Mews', 'Grove', 'Walk', 'Parade', 'Drove', 'Expressway', 'Expy',
  'Freeway', 'Fwy', 'Turnpike', 'Tpke', 'Causeway', 'Cswy', 'Crossing', 'Xing', 'Crossroad', 'Landing', 'Lndg',
  'Point', 'Pt', 'Ridge', 'Rdg', 'Run', 'View', 'Vw', 'Vista', 'Vis', 'Village', 'Vlg', 'Ville', 'Heights', 'Hts',
  'Hill', 'Hills', 'Hollow', 'Holw', 'Junction', 'Jct', 'Manor', 'Mnr', 'Meadow', 'Meadows', 'Mdws', 'Mill',
  'Mills', 'Orchard', 'Oval', 'Pass', 'Passage', 'Pines', 'Plains', 'Port', 'Ports', 'Prairie', 'Ranch', 'Rapids',
  'Rest', 'Shore', 'Shores', 'Spring', 'Springs', 'Spur', 'Station', 'Sta', 'Stravenue', 'Stream', 'Summit',
  'Trace', 'Track', 'Trafficway', 'Tunnel', 'Underpass', 'Union', 'Valley', 'Vly', 'Viaduct', 'Views', 'Villages',
  'Walks', 'Wall', 'Ways', 'Well', 'Wells', 'Bypass', 'Byp', 'Branch', 'Bridge', 'Brg', 'Brook', 'Brooks', 'Burg',
  'Burgs', 'Camp', 'Canyon', 'Cape', 'Center', 'Ctr', 'Centre', 'Cliff', 'Cliffs', 'Club', 'Common', 'Commons',
  'Corner', 'Corners', 'Course', 'Courts', 'Cove', 'Coves', 'Creek', 'Crest', 'Curve', 'Dale', 'Dam', 'Divide',
  'Drives', 'Estate', 'Estates', 'Extension', 'Ext', 'Extensions', 'Falls', 'Ferry', 'Field', 'Fields', 'Flat',
  'Flats', 'Ford', 'Fords', 'Forest', 'Forge', 'Forges', 'Fork', 'Forks', 'Fort', 'Garden', 'Gateway', 'Glen',
  'Glens', 'Green', 'Greens', 'Groves', 'Harbor', 'Harbors', 'Harbour', 'Haven', 'Inlet', 'Island', 'Islands',
  'Isle', 'Junctions', 'Key', 'Keys', 'Knoll', 'Knolls', 'Lake', 'Lakes', 'Light', 'Lights', 'Loaf', 'Lock',
  'Locks', 'Lodge', 'Mall', 'Manors', 'Mission', 'Motorway', 'Mount', 'Mountain', 'Mountains', 'Neck', 'Overpass',
  'Park', 'Parks', 'Parkways', 'Pine', 'Plain', 'Points', 'Radial', 'Ramp', 'Rapid', 'Ridges', 'River', 'Roads',
  'Route', 'Rte', 'Shoal', 'Shoals', 'Skyway', 'Spurs', 'Squares', 'Streets', 'Throughway', 'Trailer', 'Unions',
  'Valleys', 'Wharf', 'Quay', 'Embankment', 'Rise', 'Vale', 'Broadway', 'Wynd', 'Yard', 'Approach', 'Circus',
];

// Street names that end in one of these are streets in German ("Bahnhofstrasse", "Eduard-Sueß-Gasse").
export const DE_SUFFIXES = [
  'strasse', 'straße', 'str.', 'gasse', 'weg', 'platz', 'allee', 'ring', 'rain', 'halde', 'damm', 'ufer',
  'steig', 'graben', 'markt', 'chaussee', 'pfad', 'berg', 'hof', 'gässli', 'gässchen', 'stieg', 'zeile', 'kai',
  'promenade', 'steg', 'wall', 'brücke', 'feld', 'garten', 'matt', 'matte', 'acker', 'höhe', 'anger', 'tor',
];
export const DE_WORDS = [
  'Strasse', 'Straße', 'Str.', 'Gasse', 'Weg', 'Platz', 'Allee', 'Ring', 'Damm', 'Ufer', 'Chaussee', 'Steig',
  'Promenade', 'Markt', 'Graben', 'Kai', 'Zeile',
];
// Street names without a street-type ending start with a preposition and article ("Am Bach", "Zur Linde",
// "An der Mühle", "Auf dem Berg", "Im Winkel").
export const DE_LEADING = [
  'Am', 'An der', 'An den', 'Auf der', 'Auf dem', 'Auf den', 'Im', 'In der', 'In den', 'Zum', 'Zur', 'Zu den',
  'Unter den', 'Unter der', 'Hinter der', 'Hinter dem', 'Vor dem', 'Vor der', 'Beim', 'Alte', 'Alter',
];
// The same openings begin phrases of time, place and quantity ("Im Jahr 2020", "Am Montag 5 Personen",
// "Im Raum 12", "Zum Preis 20"): after a leading word, these names are never a street.
export const DE_NOT_STREET = new Set(
  (
    'jahr jahre jahren jahrgang jahrhundert monat monate monaten woche wochen wochenende tag tage tagen ' +
    'morgen vormittag mittag nachmittag abend nacht montag dienstag mittwoch donnerstag freitag samstag ' +
    'sonnabend sonntag januar jänner februar feber märz april mai juni juli august september oktober ' +
    'november dezember frühjahr frühling sommer herbst winter quartal semester anfang beginn ende schluss ' +
    'start ziel zeit zeitraum zeitpunkt moment termin datum stand durchschnitt schnitt mittel vergleich ' +
    'alter preis wert betrag gesamtwert umfang kapitel abschnitt absatz artikel paragraph paragraf punkt ' +
    'seite teil band heft anhang anlage rang raum zimmer saal gleis bahnsteig schalter stock geschoss ' +
    'erdgeschoss obergeschoss untergeschoss team spiel spieltag runde level minute minuten stunde stunden ' +
    'sekunde sekunden fall rahmen zuge namen auftrag gegensatz bereich vorjahr test versuch lauf bus zug ' +
    'schritt prozent feiertag geburtstag weihnachten ostern pfingsten silvester neujahr tisch sektor ' +
    'block bereich lager büro labor kurs schnitt'
  ).split(' '),
);

export const FR_TYPES = [
  'rue', 'avenue', 'av.', 'boulevard', 'bd', 'bld', 'chemin', 'ch.', 'place', 'pl.', 'route', 'rte', 'allée',
  'impasse', 'imp.', 'quai', 'cours', 'promenade', 'square', 'passage', 'faubourg', 'fbg', 'rond-point', 'voie',
  'sentier', 'villa', 'cité', 'hameau', 'esplanade', 'parvis', 'chaussée', 'montée', 'ruelle', 'traverse',
  'lieu-dit', 'résidence', 'clos', 'mail', 'cour',
];
export const IT_TYPES = [
  'via', 'viale', 'v.le', 'piazza', 'p.zza', 'piazzale', 'corso', 'c.so', 'vicolo', 'largo', 'strada', 'contrada',
  'lungomare', 'lungotevere', 'lungarno', 'borgo', 'salita', 'calle', 'località', 'loc.', 'frazione', 'fraz.',
  'piazzetta', 'galleria', 'vico', 'rampa', 'traversa', 'circonvallazione', 'riva', 'stradone', 'viottolo',
];

// Words that open a unit, floor, building or box line ("Apt 4B", "Suite 200", "Flat 14", "Whg. 3", "Bât. B").
export const UNIT_WORDS = [
  'Apt', 'Apt.', 'Apartment', 'Suite', 'Ste', 'Ste.', 'Unit', 'Room', 'Rm', 'Rm.', 'Floor', 'Fl', 'Fl.', 'Flr', 'Bldg',
  'Bldg.', 'Building', 'Flat', 'Dept', 'Dept.', 'Lot', 'Space', 'Spc', 'Trlr', 'Box', 'PO Box', 'P.O. Box',
  'Wohnung', 'Whg.', 'Whg', 'Stock', 'Stiege', 'Tür', 'Top', 'Postfach', 'c/o', 'Appartement', 'Appt', 'Appt.',
  'Apt', 'Bâtiment', 'Bât.', 'Bât', 'Étage', 'Etage', 'Escalier', 'Esc.', 'Porte', 'BP', 'CS', 'Case postale',
  'Interno', 'Int.', 'Scala', 'Piano', 'Edificio', 'Casella postale', 'Appartamento', '#', 'No.', 'Nr.',
];

export const US_STATES: ReadonlyMap<string, string> = new Map(
  (
    'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|' +
    'DC District of Columbia|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|' +
    'KY Kentucky|LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|' +
    'MO Missouri|MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|' +
    'NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|RI Rhode Island|' +
    'SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington|' +
    'WV West Virginia|WI Wisconsin|WY Wyoming|PR Puerto Rico|VI Virgin Islands|GU Guam|AS American Samoa|' +
    'MP Northern Mariana Islands|AA Armed Forces Americas|AE Armed Forces Europe|AP Armed Forces Pacific'
  )
    .split('|')
    .map((s) => [s.slice(0, 2), s.slice(3)] as [string, string]),
);

export const COUNTRIES = [
  'United States of America', 'United States', 'USA', 'U.S.A.', 'US', 'U.S.', 'United Kingdom', 'UK', 'U.K.',
  'Great Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland', 'Germany', 'Deutschland', 'Switzerland',
  'Schweiz', 'Suisse', 'Svizzera', 'Austria', 'Österreich', 'France', 'Italy', 'Italia', 'Allemagne', 'Autriche',
  'Italie', 'Germania', 'Francia', 'Frankreich', 'Italien', 'Spain', 'España', 'Belgium', 'Belgique', 'Luxembourg',
  'Liechtenstein', 'Monaco',
];

/** Whether a run of digits is a postcode of a country whose codes have that length. */
export function validEuropeanPostcode(code: string, prefix: string): boolean {
  const n = Number(code);
  const country = prefix.replace(/-$/, '').toUpperCase();
  if (code.length === 4) {
    // CH 1000–9658, AT 1010–9992 (also BE, LU, LI: 4 digits).
    if (country === 'A' || country === 'AT') return n >= 1010 && n <= 9992;
    if (country === 'CH') return n >= 1000 && n <= 9658;
    return n >= 1000 && n <= 9992;
  }
  if (code.length !== 5) return false;
  // DE 01001–99998, FR 01000–98999, IT 00010–98168.
  if (country === 'D' || country === 'DE') return n >= 1001;
  if (country === 'F' || country === 'FR') return n >= 1000 && n <= 98999;
  if (country === 'I' || country === 'IT') return n >= 10 && n <= 98168;
  return n >= 10 && n <= 99998;
}

// The UK postcode format (outward code: area, district; inward code: sector digit, two unit letters).
export const UK_POSTCODE =
  '(?:GIR ?0AA|[A-PR-UWYZ](?:\\d[\\dA-HJKPSTUW]?|[A-HK-Y]\\d[\\dABEHMNPRVWXY]?) ?\\d[ABD-HJLNP-UW-Z]{2})';
