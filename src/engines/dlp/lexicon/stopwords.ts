// Capitalised words that must never start or form a person name on their own, even though several of them
// appear in the public first-name or surname lists ("Will", "May", "Rose", "Paris", "Apple"...).
// Lower-case; grouped so that the reason for each entry is obvious.

const CALENDAR =
  'monday tuesday wednesday thursday friday saturday sunday montag dienstag mittwoch donnerstag freitag samstag ' +
  'sonntag lundi mardi mercredi jeudi vendredi samedi dimanche lunedì lunedi martedì martedi mercoledì mercoledi ' +
  'giovedì giovedi venerdì venerdi sabato domenica january february march april may june july august september ' +
  'october november december januar februar märz maerz juni juli oktober dezember janvier février fevrier mars ' +
  'avril mai juin juillet août aout septembre octobre novembre décembre decembre gennaio febbraio marzo aprile ' +
  'maggio giugno luglio agosto settembre ottobre dicembre christmas easter weihnachten ostern pâques ' +
  'pasqua natale spring summer autumn winter today tomorrow yesterday';

const PLACES =
  'zurich zürich zuerich bern berne basel bâle geneva genève geneve genf lausanne lucerne luzern lugano sion ' +
  'winterthur st gallen fribourg freiburg neuchâtel neuchatel biel bienne thun chur zug aarau schaffhausen ' +
  'locarno bellinzona montreux vevey nyon davos zermatt baden olten solothurn ticino tessin valais wallis vaud ' +
  'waadt graubünden grisons aargau thurgau glarus jura uri schwyz obwalden nidwalden appenzell london paris ' +
  'berlin munich münchen muenchen hamburg cologne köln frankfurt stuttgart düsseldorf dresden leipzig vienna wien ' +
  'salzburg innsbruck graz milan milano rome roma turin torino naples napoli florence firenze venice venezia ' +
  'bologna genoa genova verona lyon marseille nice toulouse bordeaux lille nantes strasbourg grenoble annecy ' +
  'brussels bruxelles brüssel amsterdam madrid barcelona lisbon lisboa dublin edinburgh manchester oxford ' +
  'cambridge boston chicago york washington texas california florida georgia virginia carolina dakota ' +
  'springfield jordan israel india china japan europe america africa asia australia canada mexico brazil ' +
  'switzerland schweiz suisse svizzera germany deutschland allemagne germania france frankreich francia italy ' +
  'italia italien italie austria österreich autriche spain spanien espagne spagna portugal belgium belgien ' +
  'belgique england britain scotland wales ireland sweden norway denmark finland poland russia ukraine turkey ' +
  'greece egypt morocco lebanon syria sydney tokyo beijing dubai singapore hong kong moscow alps alpen alpes ' +
  'rhine rhein rhône rhone danube donau seine thames ginevra zurigo basilea berna lucerna losanna friburgo ' +
  'coira sciaffusa vienne vienna wien londra londres parigi parigi monaco monaco di baviera ' +
  'francoforte colonia amburgo berlino mailand milan mailand turin turino genf genève neuenburg ' +
  'neuchâtel lausanne sitten sion pruntrut porrentruy delémont delsberg coire schaffhouse saint-gall ' +
  'lucerne soleure argovie thurgovie grisons tessin valais fribourg glaris zoug uri schwytz berne bâle ' +
  'svizzera lombardia piemonte toscana veneto sicilia sardegna bavaria bayern baviera baden-württemberg ' +
  'sachsen saxe île-de-france bretagne normandie provence alsace savoie angeles rica francisco diego vegas nord sud ouest';

const BRANDS =
  'apple google amazon microsoft meta facebook instagram whatsapp tiktok twitter linkedin youtube netflix spotify ' +
  'openai chatgpt gemini copilot mistral anthropic tesla audi bmw volkswagen fiat ' +
  'lamborghini toyota honda nissan renault peugeot citroën citroen nestlé nestle novartis ubs ' +
  'credit suisse postfinance raiffeisen migros coop denner manor swisscom sunrise salt orange sbb cff ffs ' +
  'swiss lufthansa easyjet ryanair ikea zara lidl aldi carrefour visa mastercard paypal stripe twint revolut ' +
  'oracle sap ibm intel nvidia samsung sony nokia adobe salesforce slack zoom teams outlook excel ' +
  'windows linux android iphone ipad mac macbook azure aws github gitlab jira confluence notion dropbox uber ' +
  'airbnb booking expedia starbucks mcdonalds nike adidas puma rolex omega swatch toblerone';

// Ordinary words that are also first names or surnames: refused at the start of a name, accepted after one.
const AMBIGUOUS =
  'will can may might must shall should would could rose mark grace joy hope bill frank sunny chase art sky rich ' +
  'gay bell king faith dawn crystal amber ruby pearl ivy lily holly iris daisy berry jasmine ginger candy honey ' +
  'angel max bella belle don dean earl duke baron prince princess major victor justice miles wade reed stone ' +
  'rock bud buck chance chip clay cliff dale dell dusty forest glen guy hunter jack jay ken lane lee levi mason ' +
  'neil nick pat penny price ray rex rod ross roy sage storm tab tad ted troy van vance ward wolf page bank ' +
  'young long love star west wells mare luna stella fede gioia vera bruna bianca rosa viola flora aurora alba ' +
  'speranza primo red green white black brown gray grey golden silver royal little great north south east ' +
  'upper lower saint sankt roche ford ferrari porsche bosch siemens mercedes lindt roman marine bart ' +
  'christian norman german french english italian swiss american british european spanish chinese ' +
  'japanese russian indian african asian ' +
  // German contractions that are also names ("Mr. Im Soo-jin", "Dear Ans Visser"): see CONTRACTION_NAMES.
  'im ans';

// Function and business words of the four languages that often begin a capitalised run.
const WORDS =
  'les des una con non the a an and or but if then this that these those there here what when ' +
  'where which who whom whose why how all any each every some no not yes ok okay please thanks thank hello hi ' +
  'hey dear best kind kindest regards sincerely cheers welcome new old good great big small first last next ' +
  'other our your their my his her its we you they he she it i me us them mr mrs ms miss dr prof sir madam ' +
  'team customer client user admin support service sales hr it finance legal office manager director ' +
  'ihr ihre ihren ihrem ihrer sie wir unser unsere euer eure mein meine meinen dein deine sein seine kein ' +
  'keine bei beim ich du er es man wer was wie wo wann warum welche welcher dieser diese dieses jeder jede ' +
  'alle viele neue neuen neuer vielen dank gerne leider heute morgen gestern ja nein nicht auch noch nur ' +
  'notre nos votre vos leur leurs mon ma mes ton ta tes son sa ses qui que quoi quand comment pourquoi oui ' +
  'non aujourd demain hier tous toutes nouveau nouvelle ' +
  'il mio miei mie tuo tua suo sua nostro nostra vostro vostra loro questo questa quello quella oggi ' +
  'domani ieri tutti tutte nuovo nuova sì grazie ' +
  'der die das den dem des ein eine einer eines und oder aber wenn dann bitte danke hallo liebe lieber sehr ' +
  'geehrte geehrter herr frau gruss grüsse grüße freundliche mit von vom zum zur für fuer auf aus bei nach ' +
  'le la les un une et ou mais si alors merci bonjour bonsoir salut cher chère madame monsieur mademoiselle ' +
  'cordialement bien avec pour dans sur chez par de du il elle nous vous ils elles je tu ce cette ces ' +
  'il lo gli un uno una e o ma se allora grazie buongiorno buonasera ciao salve caro cara gentile signor ' +
  'signora distinti saluti cordiali con per su da di del della dei nel nella che chi come dove quando ' +
  'street road avenue lane drive square strasse straße gasse weg platz allee rue chemin route place boulevard ' +
  'quai via viale piazza corso vicolo largo iban card karte carte carta phone email mail tel fax mobile ' +
  'invoice rechnung facture fattura order bestellung commande ordine ticket project projekt projet progetto ' +
  'report bericht rapport rapporto meeting sitzung réunion riunione account konto compte conto password ' +
  'note notes attention achtung attenzione subject betreff objet oggetto re fw fwd cc bcc from to von an de ' +
  'san santa são los las st. ste. sainte à da a ps pm am chf eur usd gbp jpy cad nok sek dkk pln czk huf api url http https www json pdf csv xml sql id uuid version release build';

// Number words and English function words that the name lists happen to contain ("Sally Four", "Than").
const FUNCTION =
  'one two three four five six seven eight nine ten eleven twelve twenty hundred thousand eins zwei drei vier ' +
  'fünf sechs sieben acht neun zehn deux trois quatre cinq sept huit neuf dix uno due tre quattro cinque sei ' +
  'sette nove dieci than be is are was were been being am do does did done have has had just only also ' +
  'to of in on at by for with as so too very more most less much many such into onto upon about after before ' +
  'between during under over again once ever never always still yet even though although because while until ' +
  'since get got let make made take took give gave go went come came see saw say said tell told find found ' +
  'add play show watch listen book set turn open close start stop call send rate anyone everyone someone ' +
  'nobody everybody somebody anybody nothing everything something sarà sarai saranno però perché così già ' +
  'più può potrà dovrà avrà farà ' +
  // German preposition-article contractions open no name, yet are capitalised at a sentence start or in a
  // run of nouns after a weak cue ("per E-Mail Im Anhang": never a person). "zur" stays a particle; "im"
  // and "ans" are names too (the Korean surname Im, the Dutch first name Ans): see CONTRACTION_NAMES.
  'zum vom beim ins aufs';

// Common nouns that the name rules would otherwise accept after "said", "laut", "per", a role word or at the
// start of a run (institutions, media, documents and a few German nouns that are also first names).
const NOUNS =
  'police polizei government regierung ministry ministerium company firma unternehmen spokesman ' +
  'spokeswoman sprecher sprecherin officials report court gericht study studie text mitteilung anfang beginn ' +
  'bus leben gott god reuters afp dpa ap völker realist ende zeit jahr welt stadt land ' +
  'staat bund kirche partei presse agency agentur agence agenzia nation nations union';

function words(...lists: string[]): ReadonlySet<string> {
  return new Set(
    lists
      .join(' ')
      .split(/\s+/)
      .filter((w) => w !== ''),
  );
}

/** Never part of a person name. */
export const NEVER_NAME = words(CALENDAR, PLACES, BRANDS, WORDS, FUNCTION, NOUNS);
/** Never the first word of a name, nor a name on its own without a strong cue. */
export const AMBIGUOUS_NAME = words(AMBIGUOUS);

/**
 * German contractions that are names as well ("Im Soo-jin", "Ans Visser"): never inside or at the end of a
 * name ("E-Mail Im Anhang"), and at its start only as an ambiguous word (AMBIGUOUS_NAME: a strong cue).
 */
export const CONTRACTION_NAMES: ReadonlySet<string> = new Set(['im', 'ans']);

/** Particles that may sit inside a name ("Ludwig van Beethoven", "Maria di Stefano", "Jean de La Fontaine"). */
export const PARTICLES: ReadonlySet<string> = new Set(
  'van von der den de du des di da del della dei dos das ter ten zu zur le la al el bin ibn mac st'.split(
    ' ',
  ),
);

/** Endings of German (and a few Romance) common nouns; a capitalised word with one of them is not taken as a surname. */
export const NOUN_ENDING =
  /(?:ung|heit|keit|schaft|tion|sion|tät|ität|nis|ment|chen|lein|ismus|ieren|ierung|ungen|zione|sione|ità|ité|mento)$/;

/** Articles and possessives: a lone capitalised word right after one is a noun ("the Minister said"). */
export const DETERMINERS = words(
  'the this that these those his her their its our my your der die das den dem des ein eine einen einem ' +
    'einer eines sein seine ihr ihre unser unsere le la les un une ce cette ces son sa ses leur du au aux l il lo ' +
    'gli uno una suo sua questo questa del della dello al alla welche welcher welches welchem welchen jede jeder ' +
    'jedes jedem manche dieser diese dieses diesem which what whose quel quelle quels quelles quale quali',
);

/** Heads of organisation and place names: "Kennedy Space Center", "Norman High School", "Wanda Group". */
export const ORGANISATION_WORDS = words(
  'school high college university universität université università academy akademie center centre zentrum ' +
    'space county river tower museum museo musée group gruppe groupe gruppo islands island house inc ltd llc ' +
    'corp co company consultants consulting technologies associates partners foundation stiftung fondation ' +
    'fondazione institute institut istituto hospital spital klinik hôpital ospedale airport flughafen aéroport ' +
    'aeroporto station bahnhof gare stazione bridge cathedral library hotel stadium stadion stade stadio lake ' +
    'mountain mountains valley bay boulevard award awards prize cup trophy bowl orchestra orchester records ' +
    'productions studios pictures magazine times journal zeitung bank banque banca club verein fc united ' +
    'gmbh ag plc sa spa sarl holdings services systems solutions airlines airways motors pharma international ' +
    'city hills shores falls chapel wildlife refuge llp shop song saga hits tales girls kids movie world playlist ' +
    'area department ministry council committee commission party church',
);

/** Nouns that make the following capitalised words a place or a building ("rue Victor Hugo", "place Jean Macé"). */
export const PLACE_NOUNS = words(
  'rue place avenue boulevard quai salle pont square impasse allée chemin route via piazza corso viale largo ' +
    'vicolo platz strasse straße gasse weg allee ring street road lane drive saint sainte san santa sankt st ' +
    'ste église lycée collège école gare stade hôtel église chiesa kirche schule hotel',
);
