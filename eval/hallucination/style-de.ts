import type { StylePassage } from './style.js';

// Erfundene Texte und Aussagen, für diese Auswertung geschrieben (siehe style.ts).
export const STYLE_DE: StylePassage[] = [
  {
    id: 'de-seilbahn',
    lang: 'de',
    passage:
      'Die Seilbahn auf den Grauspitz wurde im Dezember 2017 eröffnet. Sie überwindet 1.150 Höhenmeter und bringt bis zu 2.400 Personen pro Stunde auf den Gipfel. Gebaut hat sie die Firma Almtec aus Innsbruck. Im Sommer fährt die Bahn nur bei gutem Wetter.',
    claims: [
      ['Bei schlechtem Wetter steht die Bahn im Sommer still.', 'supported', 'reworded'],
      [
        'Stündlich können bis zu 2.400 Fahrgäste mit der Seilbahn auf den Gipfel fahren.',
        'supported',
        'reworded',
      ],
      [
        'Die Seilbahn auf den Grauspitz wurde von der Firma Almtec aus Salzburg gebaut.',
        'contradicted',
        'entity_swap',
      ],
      ['Die Bahn wurde im Dezember 2017 in Betrieb genommen.', 'supported', 'qa_right'],
      ['Die Bahn wurde im Dezember 2019 in Betrieb genommen.', 'contradicted', 'qa_wrong'],
      [
        'Seit Dezember 2017 führt eine von Almtec gebaute Seilbahn auf den Grauspitz. Sie überwindet 1.150 Höhenmeter.',
        'supported',
        'summary_faithful',
      ],
      [
        'Seit Dezember 2017 führt eine von Almtec gebaute Seilbahn auf den Grauspitz. Sie fährt das ganze Jahr über bei jedem Wetter.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-brauerei',
    lang: 'de',
    passage:
      'Die Brauerei Hollerbach in Weidenau braut seit 1868 Bier. Heute stellt sie jährlich rund 90.000 Hektoliter her und beschäftigt 140 Mitarbeiter. Seit 2020 wird die gesamte Energie aus einer eigenen Holzheizung und Solaranlagen gewonnen. Geschäftsführerin ist Katrin Vogt.',
    claims: [
      [
        'Die Brauerei deckt ihren Energiebedarf seit 2020 vollständig mit einer eigenen Holzheizung und Solaranlagen.',
        'supported',
        'reworded',
      ],
      ['Bei Hollerbach arbeiten 140 Menschen.', 'supported', 'reworded'],
      ['Geschäftsführerin der Brauerei Hollerbach ist Katrin Weidenau.', 'contradicted', 'entity_swap'],
      ['Die Brauerei produziert etwa 90.000 Hektoliter im Jahr.', 'supported', 'qa_right'],
      ['Die Brauerei produziert etwa 900.000 Hektoliter im Jahr.', 'contradicted', 'qa_wrong'],
      [
        'Die 1868 gegründete Brauerei Hollerbach aus Weidenau braut jährlich etwa 90.000 Hektoliter. Geleitet wird sie von Katrin Vogt.',
        'supported',
        'summary_faithful',
      ],
      [
        'Die 1868 gegründete Brauerei Hollerbach aus Weidenau braut jährlich etwa 90.000 Hektoliter. Ihr Bier wird vor allem nach China exportiert.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-tunnel',
    lang: 'de',
    passage:
      'Der Lehnbergtunnel verbindet seit 2015 die Orte Aschau und Rieden. Er ist 6,8 Kilometer lang und hat zwei getrennte Röhren. Die Baukosten lagen bei 410 Millionen Euro. Seit der Eröffnung hat sich die Fahrzeit zwischen den beiden Orten von 40 auf 12 Minuten verkürzt.',
    claims: [
      [
        'Dank des Tunnels dauert die Fahrt von Aschau nach Rieden nur noch 12 statt 40 Minuten.',
        'supported',
        'reworded',
      ],
      ['Für den Bau des Tunnels wurden 410 Millionen Euro ausgegeben.', 'supported', 'reworded'],
      ['Der Lehnbergtunnel verbindet seit 2015 die Orte Aschau und Lehnau.', 'contradicted', 'entity_swap'],
      ['Der Tunnel ist 6,8 Kilometer lang.', 'supported', 'qa_right'],
      ['Der Tunnel ist 8,6 Kilometer lang.', 'contradicted', 'qa_wrong'],
      [
        'Der 6,8 Kilometer lange Lehnbergtunnel mit zwei Röhren wurde 2015 eröffnet. Er kostete 410 Millionen Euro und verkürzt die Fahrt zwischen Aschau und Rieden deutlich.',
        'supported',
        'summary_faithful',
      ],
      [
        'Der 6,8 Kilometer lange Lehnbergtunnel wurde 2015 eröffnet. Er hat nur eine Röhre für beide Richtungen.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-studie',
    lang: 'de',
    passage:
      'Eine Studie der Universität Greifenstein hat 2.300 Pendler über zwei Jahre begleitet. Wer mit dem Fahrrad zur Arbeit fuhr, hatte im Schnitt drei Krankheitstage weniger pro Jahr. Geleitet wurde die Untersuchung von Professor Jonas Albrecht. Die Ergebnisse erschienen im Mai 2024 in einer medizinischen Fachzeitschrift.',
    claims: [
      [
        'Radfahrer unter den Pendlern fehlten durchschnittlich drei Tage weniger im Jahr wegen Krankheit.',
        'supported',
        'reworded',
      ],
      [
        'Professor Jonas Albrecht leitete die Studie, deren Ergebnisse im Mai 2024 veröffentlicht wurden.',
        'supported',
        'reworded',
      ],
      ['Die Pendlerstudie wurde von Professor Jonas Greifenstein geleitet.', 'contradicted', 'entity_swap'],
      ['An der Studie nahmen 2.300 Pendler teil.', 'supported', 'qa_right'],
      ['An der Studie nahmen 3.200 Pendler teil.', 'contradicted', 'qa_wrong'],
      [
        'Forscher aus Greifenstein beobachteten zwei Jahre lang 2.300 Pendler. Wer radelte, war seltener krank.',
        'supported',
        'summary_faithful',
      ],
      [
        'Forscher aus Greifenstein beobachteten zwei Jahre lang 2.300 Pendler. Wer radelte, war häufiger krank als Autofahrer.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-zoo',
    lang: 'de',
    passage:
      'Der Tierpark Elmsried zählt jedes Jahr etwa 600.000 Besucher. Im März 2023 wurde dort ein neues Elefantenhaus eröffnet, das 14 Millionen Euro gekostet hat. Der Park hält rund 1.200 Tiere aus 180 Arten. Direktorin ist seit 2016 die Biologin Sabine Krämer.',
    claims: [
      [
        'Das neue Elefantenhaus, das im März 2023 öffnete, kostete 14 Millionen Euro.',
        'supported',
        'reworded',
      ],
      ['Die Biologin Sabine Krämer leitet den Tierpark seit 2016.', 'supported', 'reworded'],
      [
        'Direktorin des Tierparks Elmsried ist seit 2016 die Biologin Sabine Elmer.',
        'contradicted',
        'entity_swap',
      ],
      ['Im Tierpark leben rund 1.200 Tiere.', 'supported', 'qa_right'],
      ['Im Tierpark leben rund 12.000 Tiere.', 'contradicted', 'qa_wrong'],
      [
        'Der Tierpark Elmsried mit 1.200 Tieren aus 180 Arten empfängt jährlich rund 600.000 Gäste. 2023 kam ein Elefantenhaus für 14 Millionen Euro hinzu.',
        'supported',
        'summary_faithful',
      ],
      [
        'Der Tierpark Elmsried mit 1.200 Tieren aus 180 Arten empfängt jährlich rund 600.000 Gäste. Im nächsten Jahr sollen Eisbären einziehen.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-werft',
    lang: 'de',
    passage:
      'Die Werft Brandt & Söhne in Kielhafen baut seit 1921 Fischkutter und Fähren. 2022 lieferte sie die erste Elektrofähre Norddeutschlands aus. Das Unternehmen hat 310 Beschäftigte und bildet jedes Jahr 20 Lehrlinge aus. Inhaber ist Martin Brandt in vierter Generation.',
    claims: [
      ['Jährlich beginnen 20 junge Leute eine Ausbildung bei der Werft.', 'supported', 'reworded'],
      [
        'Die erste elektrische Fähre Norddeutschlands wurde 2022 von Brandt & Söhne übergeben.',
        'supported',
        'reworded',
      ],
      [
        'Die Werft Brandt & Söhne in Rostock baut seit 1921 Fischkutter und Fähren.',
        'contradicted',
        'entity_swap',
      ],
      ['Die Werft beschäftigt 310 Menschen.', 'supported', 'qa_right'],
      ['Die Werft beschäftigt 130 Menschen.', 'contradicted', 'qa_wrong'],
      [
        'Seit 1921 baut die Kielhafener Werft Brandt & Söhne Kutter und Fähren. Sie wird in vierter Generation von Martin Brandt geführt.',
        'supported',
        'summary_faithful',
      ],
      [
        'Seit 1921 baut die Kielhafener Werft Brandt & Söhne Kutter und Fähren. Elektrofähren hat sie noch nie gebaut.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-bibliothek',
    lang: 'de',
    passage:
      'Die Stadtbibliothek Rabenau ist seit Januar 2021 auch sonntags geöffnet. Sie besitzt etwa 250.000 Medien und verleiht seit 2019 auch Werkzeuge und Nähmaschinen. Der Neubau am Marktplatz wurde von der Architektin Lena Hofer entworfen. Die Jahresgebühr für Erwachsene beträgt 18 Euro.',
    claims: [
      ['Erwachsene zahlen für ein Jahr 18 Euro.', 'supported', 'reworded'],
      [
        'Neben Büchern kann man dort seit 2019 auch Nähmaschinen und Werkzeug ausleihen.',
        'supported',
        'reworded',
      ],
      [
        'Der Neubau der Stadtbibliothek Rabenau wurde von der Architektin Lena Markt entworfen.',
        'contradicted',
        'entity_swap',
      ],
      ['Die Bibliothek hat seit Januar 2021 auch am Sonntag offen.', 'supported', 'qa_right'],
      ['Die Bibliothek hat sonntags geschlossen.', 'contradicted', 'qa_wrong'],
      [
        'Die Stadtbibliothek Rabenau mit rund 250.000 Medien öffnet seit 2021 auch sonntags. Ihr Neubau am Marktplatz stammt von Lena Hofer.',
        'supported',
        'summary_faithful',
      ],
      [
        'Die Stadtbibliothek Rabenau mit rund 250.000 Medien öffnet seit 2021 auch sonntags. Die Nutzung ist für alle kostenlos.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-moor',
    lang: 'de',
    passage:
      'Das Wildmoor bei Hessfeld wurde zwischen 2012 und 2018 wiedervernässt. Auf 420 Hektar wurden alte Entwässerungsgräben verschlossen. Seitdem brüten dort wieder Kraniche und Bekassinen. Das Projekt wurde vom Naturschutzbund Hessfeld geleitet und von der EU mitfinanziert.',
    claims: [
      ['Kraniche und Bekassinen nisten seither wieder im Moor.', 'supported', 'reworded'],
      [
        'Auf einer Fläche von 420 Hektar schloss man die alten Gräben, die das Moor entwässert hatten.',
        'supported',
        'reworded',
      ],
      [
        'Die Wiedervernässung des Wildmoors wurde vom Naturschutzbund Bremen geleitet.',
        'contradicted',
        'entity_swap',
      ],
      ['Das Moor wurde von 2012 bis 2018 wiedervernässt.', 'supported', 'qa_right'],
      ['Das Moor wurde von 2002 bis 2008 wiedervernässt.', 'contradicted', 'qa_wrong'],
      [
        'Von 2012 bis 2018 wurde das Wildmoor bei Hessfeld auf 420 Hektar wieder nass gemacht. Heute brüten dort erneut Kraniche.',
        'supported',
        'summary_faithful',
      ],
      [
        'Von 2012 bis 2018 wurde das Wildmoor bei Hessfeld auf 420 Hektar wieder nass gemacht. Das Projekt wurde allein vom Land bezahlt.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-orchester',
    lang: 'de',
    passage:
      'Das Kammerorchester Lindwurm wurde 1994 in Graz gegründet und hat 32 Mitglieder. Chefdirigentin ist seit 2020 Mirjam Osterholz. Das Orchester gibt jährlich etwa 60 Konzerte, die Hälfte davon im Ausland. 2023 erhielt es einen Preis für seine Aufnahme der Sinfonien von Haydn.',
    claims: [
      [
        'Rund die Hälfte der etwa 60 Konzerte pro Jahr findet außerhalb Österreichs statt.',
        'supported',
        'reworded',
      ],
      ['Mirjam Osterholz leitet das Orchester seit 2020 als Chefdirigentin.', 'supported', 'reworded'],
      ['Das Kammerorchester Lindwurm wurde 1994 in Linz gegründet.', 'contradicted', 'entity_swap'],
      ['Das Orchester hat 32 Mitglieder.', 'supported', 'qa_right'],
      ['Das Orchester hat 23 Mitglieder.', 'contradicted', 'qa_wrong'],
      [
        'Das 1994 in Graz gegründete Kammerorchester Lindwurm zählt 32 Musiker. 2023 wurde seine Haydn-Aufnahme ausgezeichnet.',
        'supported',
        'summary_faithful',
      ],
      [
        'Das 1994 in Graz gegründete Kammerorchester Lindwurm zählt 32 Musiker. Es spielt ausschließlich in Österreich.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'de-rathaus',
    lang: 'de',
    passage:
      'Das Rathaus von Kellbrunn wurde 2019 energetisch saniert. Seitdem verbraucht es 70 Prozent weniger Heizenergie. Auf dem Dach liefert eine Photovoltaikanlage mit 180 Kilowatt Leistung Strom. Die Sanierung dauerte 18 Monate und kostete 6,5 Millionen Euro.',
    claims: [
      [
        'Nach der Sanierung braucht das Rathaus nur noch 30 Prozent der früheren Heizenergie.',
        'supported',
        'reworded',
      ],
      [
        'Die Arbeiten zogen sich über anderthalb Jahre hin und kosteten 6,5 Millionen Euro.',
        'supported',
        'reworded',
      ],
      [
        'Das Rathaus von Rabenau wurde 2019 energetisch saniert und verbraucht seitdem 70 Prozent weniger Heizenergie.',
        'contradicted',
        'entity_swap',
      ],
      ['Die Solaranlage auf dem Dach hat eine Leistung von 180 Kilowatt.', 'supported', 'qa_right'],
      ['Die Solaranlage auf dem Dach hat eine Leistung von 80 Kilowatt.', 'contradicted', 'qa_wrong'],
      [
        'Die Sanierung des Kellbrunner Rathauses 2019 senkte den Heizenergiebedarf um 70 Prozent. Auf dem Dach erzeugt eine 180-Kilowatt-Anlage Solarstrom.',
        'supported',
        'summary_faithful',
      ],
      [
        'Die Sanierung des Kellbrunner Rathauses 2019 senkte den Heizenergiebedarf um 70 Prozent. Die Kosten lagen bei 65 Millionen Euro.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
];
