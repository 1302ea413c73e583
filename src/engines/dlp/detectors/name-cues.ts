// Words and phrases that announce a person name. They are matched against the words just before a
// capitalised run (set look-ups, not regular expressions, so the cost does not grow with the lists).

function phrases(list: string): ReadonlySet<string> {
  return new Set(list.split('|'));
}

/** Directly before the name, separated by one space (optionally a dot): "Mr Smith", "Sig.ra Rossi". */
export const HONORIFICS = phrases(
  'mr|mrs|ms|mx|dr|prof|hr|fr|mme|mlle|sig|sig.ra|sig.na|dott|dott.ssa|dr.ssa|ing|avv|m|miss|sir|dame|lady|lord|' +
    'herr|frau|monsieur|madame|mademoiselle|signor|signora|signorina|maître|maitre|docteur|doctor|doktor|dottor|' +
    'dottore|dottoressa|ingegner|ingegnere|architetto|professor|professeur|professore|avvocato|' +
    // Nobility, clergy, military and family titles: directly before a name in news and history.
    'king|queen|prince|princess|pope|könig|königin|prinz|prinzessin|herzog|herzogin|graf|gräfin|' +
    'kaiser|kaiserin|fürst|fürstin|papst|bischof|erzbischof|kardinal|pfarrer|pastor|roi|reine|princesse|duc|' +
    'duchesse|comte|comtesse|pape|cardinal|abbé|regina|principe|principessa|duca|conte|contessa|gen|général|' +
    'col|colonel|oberst|capt|captain|kapitän|sgt|sergeant|lt|gov|sen|rep|sheikh|scheich|' +
    'imam|rabbi|rabbiner|uncle|aunt|onkel|tante|oncle|zio|zia|frère|sœur|bruder|schwester|mm|mgr|mlles|mmes|' +
    'messrs|mesdames|messieurs|citoyen|citoyenne|veuve|witwe|vedova|mister|herrn|herren',
);

/** Greetings: a strong cue only where a message or sentence starts ("Good morning Sunshine" is a title). */
export const GREETINGS = phrases(
  'dear|hi|hello|hey|good morning|bonjour|bonsoir|salut|cher|chère|coucou|hallo|liebe|lieber|grüezi|grüss dich|' +
    'servus|moin|gentile|gentilissima|gentilissimo|caro|cara|buongiorno|buonasera|ciao|salve',
);

/** Self-introductions: whatever capitalised follows is the speaker's name. */
export const PHRASES = phrases(
  "my name is|my name's|name is|call me|je m'appelle|mon nom est|ich heiße|ich heisse|mein name ist|mi chiamo|" +
    "il mio nome è|is called|is named|was called|was named|si chiama|s'appelle",
);

/**
 * Weaker: also common before things ("according to the report", "laut Gericht", "per E-Mail", "ich bin
 * Realist", "called Fire in the Hole"), so they vouch only like a role noun (two words or a known name part).
 */
export const SOFT_PHRASES = phrases(
  "i am|i'm|this is|je suis|ich bin|sono|contact|contacter|contactez|kontaktieren sie|kontaktiere|contattare|" +
    'contatta|ask|tell|thanks|thank you|merci|danke|grazie|cc|signed|signé|firmato|gezeichnet|per|attn|' +
    "à l'attention de|all'attenzione di|called|named|according to|selon|laut|secondo|d'après|gemäss|gemäß|" +
    // "heißt" also names things ("Die Lehre heißt Vulkanologie").
    'heißt|heisst|' +
    // English inverted reporting is mostly followed by a full name; a lone word there is often not one.
    'said|says|asked|added|wrote',
);

/**
 * Reporting verbs before the run, in inverted order ("sagte Dobrindt", "erklärt Haas", "déclare Dupont"): a lone
 * unknown capitalised word is accepted unless it looks like a common noun.
 */
export const SPEECH_BEFORE = phrases(
  'sagte|sagt|erklärte|erklärt|meinte|meint|betonte|betont|klagte|klagt|' +
    'ergänzte|ergänzt|berichtete|berichtet|schrieb|schreibt|warnte|warnt|fragte|fragt|so|' +
    'déclare|explique|affirme|ajoute|précise|souligne|estime|dit|disse|dice|spiega|afferma|aggiunge|ha detto',
);

/**
 * Role nouns ("customer", "Kunde", "titulaire"): also common before a team or product name ("Customer
 * Success"), so they vouch only for a two-word run or a word the lexicons know.
 */
export const ROLES = phrases(
  'account holder|holder|customer|guest|user|member|buyer|seller|owner|passenger|titulaire|titulaire du compte|' +
    'kontoinhaber|kontoinhaberin|intestatario|intestataria|name on card|cardholder|beneficiary|bénéficiaire|' +
    'begünstigter|beneficiario|patient|patiente|patientin|paziente|client|cliente|kunde|kundin|employee|' +
    'mitarbeiter|mitarbeiterin|collaborateur|collaboratrice|dipendente|colleague|collègue|kollege|kollegin|collega|' +
    'manager|responsable|verantwortlich|responsabile|tenant|locataire|mieter|mieterin|inquilino|applicant|candidat|' +
    'candidate|bewerber|bewerberin|candidato|candidata',
);

/**
 * Titles and professions that precede a surname in news and reports ("Präsident Erdogan", "coach Klopp",
 * "capitaine Dreyfus"): like the inverted reporting verbs, they vouch for a lone unknown capitalised word.
 */
export const TITLES = phrases(
  'president|senator|governor|minister|chancellor|mayor|coach|ceo|chairman|chairwoman|actor|actress|singer|' +
    'director|author|präsident|präsidentin|kanzler|kanzlerin|minister|ministerin|bundesrat|bundesrätin|' +
    'bürgermeister|bürgermeisterin|trainer|trainerin|regisseur|regisseurin|sänger|sängerin|schauspieler|' +
    'schauspielerin|autorin|ministerpräsident|ministerpräsidentin|außenminister|aussenminister|innenminister|' +
    'finanzminister|bundeskanzler|bundeskanzlerin|bundespräsident|hauptmann|leutnant|oberleutnant|' +
    'président|présidente|ministre|maire|entraîneur|chanteur|chanteuse|acteur|actrice|réalisateur|' +
    'réalisatrice|écrivain|capitaine|commandant|lieutenant|sergent|caporal|nommé|nommée|époux|épouse|' +
    'presidente|ministro|sindaco|allenatore|cantante|attore|attrice|regista|scrittore|scrittrice|capitano|' +
    'composer|painter|writer|poet|architect|philosopher|conductor|pianist|guitarist|drummer|footballer|striker|' +
    'goalkeeper|komponist|komponistin|maler|malerin|schriftsteller|schriftstellerin|dichter|dichterin|philosoph|' +
    'dirigent|dirigentin|geiger|geigerin|pianist|pianistin|architekt|architektin|fotograf|fotografin|' +
    'journalist|journalistin|historiker|historikerin|bildhauer|bildhauerin|stürmer|torhüter|torwart|peintre|' +
    'poète|compositeur|compositrice|architecte|philosophe|journaliste|sculpteur|pittore|poeta|compositore|' +
    'giornalista|scultore|filosofo',
);

/**
 * German compounds ending in a title ("US-Präsident Obama", "Ministerpräsident Olmert", "ITR-Chef Aufrecht",
 * "SVP-Nationalrat Brunner") vouch like the title itself.
 */
export const TITLE_SUFFIX =
  /.(?:präsident|präsidentin|minister|ministerin|chef|chefin|kanzler|kanzlerin|sprecher|sprecherin|vorsitzende|vorsitzender|trainer|trainerin|nationalrat|ständerat|stadtrat|direktor|direktorin|leiter|leiterin|bischof|kardinal|senator|gouverneur|bürgermeister|bürgermeisterin|sänger|sängerin|autor|autorin|regisseur|regisseurin)$/;

/** Reporting verbs right after a capitalised run ("Keller said", "Dupont a dit"). */
export const SPEECH_AFTER = phrases(
  'said|says|told|added|explained|wrote|argued|noted|asked|replied|insisted|claimed|stated|announced|' +
    'admitted|recalled|warned|sagte|sagt|erklärte|erklärt|meinte|meint|betonte|betont|schrieb|schreibt|' +
    'ergänzte|ergänzt|berichtete|berichtet|warnte|warnt|fügte|' +
    'bestätigte|tweeted|déclare|déclarait|explique|affirme|ajoute|' +
    'précise|souligne|estime|disse|dice|spiega|afferma|aggiunge|dichiara',
);

/** At the start of a line: form labels and mail headers ("Name:", "Von:", "Cognome"). */
export const LABELS = phrases(
  'name|full name|nom|nom complet|prénom|vorname|nachname|name vorname|nome|cognome|nome e cognome|from|de|von|da|' +
    'to|an|à|a|contact|kontakt|contatto|owner|author|auteur|autor|autore',
);

/** The last words of a sign-off line, the name following on the next line. */
export const SIGNOFFS = phrases(
  'regards|best|cheers|thanks|thank you|sincerely|yours|cordialement|salutations|bien à vous|amitiés|bises|grüsse|' +
    'grüße|gruss|gruß|liebe grüsse|herzlich|saluti|cordiali saluti|distinti saluti|un saluto|a presto|merci|danke|grazie',
);

/** Prepositions and conjunctions that often precede a person; they only vouch for a two-word run. */
export const LINKS = phrases(
  'from|with|by|for|to|and|or|of|de|par|pour|avec|et|ou|à|von|mit|für|an|und|oder|bei|da|di|con|e|o|per|a',
);

export const MAX_CUE_WORDS = 4;
