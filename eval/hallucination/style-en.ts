import type { StylePassage } from './style.js';

// Invented passages and claims, written for this evaluation (see style.ts).
export const STYLE_EN: StylePassage[] = [
  {
    id: 'en-observatory',
    lang: 'en',
    passage:
      'The Caldera Ridge Observatory was built in 2004 on a plateau above the village of Tessaly. Its main telescope has a mirror 3.2 metres across and was paid for by the Hallam Foundation. Astronomers from four universities share the observing time. In winter, snow often closes the only road, so staff are flown in by helicopter.',
    claims: [
      [
        'Staff reach the observatory by helicopter in winter because snow frequently blocks the single access road.',
        'supported',
        'reworded',
      ],
      [
        'The Hallam Foundation funded the main telescope, whose mirror measures 3.2 metres.',
        'supported',
        'reworded',
      ],
      [
        'The main telescope of the Caldera Ridge Observatory was paid for by the Tessaly Foundation.',
        'contradicted',
        'entity_swap',
      ],
      ['The telescope was financed by the Hallam Foundation.', 'supported', 'qa_right'],
      ['The telescope was financed by the national science ministry.', 'contradicted', 'qa_wrong'],
      [
        'Completed in 2004 above Tessaly, the observatory houses a 3.2-metre telescope funded by the Hallam Foundation. Four universities divide its observing time.',
        'supported',
        'summary_faithful',
      ],
      [
        'Completed in 2004 above Tessaly, the observatory houses a 3.2-metre telescope. Its observing time is reserved for a single university, and the road stays open all year.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-ferry',
    lang: 'en',
    passage:
      'Since April 2019 the electric ferry Wren has linked Portmore and the island of Skell. The crossing takes 25 minutes, and the vessel carries up to 40 cars and 300 passengers. Its batteries are recharged at the Portmore quay during the ten-minute stop. The ferry replaced a diesel boat that had served the route for thirty years.',
    claims: [
      [
        'A diesel boat that had run the Portmore–Skell route for three decades was replaced by the Wren.',
        'supported',
        'reworded',
      ],
      ['It takes the Wren 25 minutes to cross between Portmore and Skell.', 'supported', 'reworded'],
      [
        'The ferry Wren has linked Portmore and the island of Tessel since April 2019.',
        'contradicted',
        'entity_swap',
      ],
      ['The Wren can take as many as 300 passengers.', 'supported', 'qa_right'],
      ['The Wren can take as many as 500 passengers.', 'contradicted', 'qa_wrong'],
      [
        'The electric ferry Wren has served Portmore and Skell since April 2019. It charges its batteries at Portmore during a short stop and replaced an old diesel boat.',
        'supported',
        'summary_faithful',
      ],
      [
        'The electric ferry Wren has served Portmore and Skell since April 2019. It was built in Norway and cost 18 million euros.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-library',
    lang: 'en',
    passage:
      "The Marlow Public Library reopened in September 2022 after a two-year renovation led by the architect Priya Anand. The building now has a rooftop reading garden and a children's wing on the ground floor. Visits rose by 60 percent in the first year. The renovation was funded jointly by the city council and a local bank, Fenwick & Co.",
    claims: [
      ['In the year after it reopened, the library saw 60 percent more visitors.', 'supported', 'reworded'],
      [
        'Priya Anand was the architect in charge of the two-year renovation of the Marlow Public Library.',
        'supported',
        'reworded',
      ],
      [
        'The renovation of the Marlow Public Library was led by the architect Fenwick Anand.',
        'contradicted',
        'entity_swap',
      ],
      ["The children's wing is on the ground floor.", 'supported', 'qa_right'],
      ["The children's wing is on the rooftop.", 'contradicted', 'qa_wrong'],
      [
        "After a renovation of two years, the Marlow library reopened in 2022 with a rooftop garden and a children's wing. The city council and Fenwick & Co paid for the work.",
        'supported',
        'summary_faithful',
      ],
      [
        'After a renovation of two years, the Marlow library reopened in 2022 with a rooftop garden. Visits fell in the first year after the reopening.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-vaccine',
    lang: 'en',
    passage:
      'Researchers at Dunmore University tested a nasal flu vaccine on 1,800 adults during the 2023 season. Those who received it were 41 percent less likely to need hospital care than those given a placebo. Mild congestion was the most common side effect. The study was led by Dr. Helen Okafor and published in March 2024.',
    claims: [
      [
        'Compared with placebo, the nasal vaccine cut the risk of hospital treatment by 41 percent.',
        'supported',
        'reworded',
      ],
      ['Dr. Helen Okafor headed the study, which appeared in March 2024.', 'supported', 'reworded'],
      ['The nasal flu vaccine study was led by Dr. Helen Dunmore.', 'contradicted', 'entity_swap'],
      ['The vaccine was tested on 1,800 adults.', 'supported', 'qa_right'],
      ['The vaccine was tested on 1,800 children.', 'contradicted', 'qa_wrong'],
      [
        'A Dunmore University trial with 1,800 adults found that a nasal flu vaccine lowered hospital admissions by 41 percent. The usual side effect was mild congestion.',
        'supported',
        'summary_faithful',
      ],
      [
        'A Dunmore University trial with 1,800 adults found that a nasal flu vaccine lowered hospital admissions by 41 percent. The vaccine will be sold in pharmacies from next winter.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-festival',
    lang: 'en',
    passage:
      'The Linden Jazz Festival takes place every July in the old harbour of Carrick. It was founded in 1987 by the trumpeter Samuel Reyes. Last year about 45,000 people attended over five days. Most concerts are free, but the closing gala requires a ticket.',
    claims: [
      [
        'Apart from the closing gala, for which a ticket is needed, most of the concerts cost nothing.',
        'supported',
        'reworded',
      ],
      ['Roughly 45,000 visitors came to the five-day festival last year.', 'supported', 'reworded'],
      [
        'The Linden Jazz Festival was founded in 1987 by the trumpeter Samuel Carrick.',
        'contradicted',
        'entity_swap',
      ],
      ['The festival was started in 1987.', 'supported', 'qa_right'],
      ['The festival was started in 1997.', 'contradicted', 'qa_wrong'],
      [
        "Founded by Samuel Reyes in 1987, the Linden Jazz Festival is held each July in Carrick's old harbour. It lasts five days and most concerts are free.",
        'supported',
        'summary_faithful',
      ],
      [
        "Founded by Samuel Reyes in 1987, the Linden Jazz Festival is held each July in Carrick's old harbour. Every concert, the closing gala included, is free.",
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-bakery',
    lang: 'en',
    passage:
      'Oriel Bakeries was started in 1996 by the brothers Tom and Luca Ferri in a garage in Hadley. The company now runs 34 shops in the north of England and bakes its bread in a single plant in Stockwell. In 2021 it stopped using palm oil in all its products. Annual sales reached 52 million pounds last year.',
    claims: [
      ["All of Oriel's bread is baked at one plant, in Stockwell.", 'supported', 'reworded'],
      ['Palm oil has not been used in any Oriel product since 2021.', 'supported', 'reworded'],
      [
        'Oriel Bakeries was started in 1996 by the brothers Tom and Luca Ferri in a garage in Stockwell.',
        'contradicted',
        'entity_swap',
      ],
      ['Oriel Bakeries has 34 shops.', 'supported', 'qa_right'],
      ['Oriel Bakeries has 43 shops.', 'contradicted', 'qa_wrong'],
      [
        'Two brothers founded Oriel Bakeries in a Hadley garage in 1996. Today the firm has 34 shops in northern England and sold goods worth 52 million pounds last year.',
        'supported',
        'summary_faithful',
      ],
      [
        'Two brothers founded Oriel Bakeries in a Hadley garage in 1996. The firm bakes its bread in three plants across Scotland.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-river',
    lang: 'en',
    passage:
      'The river Aln rises in the Breck Hills and flows 86 kilometres east to the sea at Westmouth. Otters returned to its lower course in 2015 after a clean-up of the old tannery sites. A weir at Millbrook was removed in 2020 so that salmon can swim upstream again. Fishing is banned between October and March.',
    claims: [
      [
        'Since the Millbrook weir was taken out in 2020, salmon can migrate up the river once more.',
        'supported',
        'reworded',
      ],
      ['From October to March, nobody may fish in the Aln.', 'supported', 'reworded'],
      [
        'The river Aln rises in the Westmouth Hills and flows east to the sea.',
        'contradicted',
        'entity_swap',
      ],
      ['The Aln is 86 kilometres long.', 'supported', 'qa_right'],
      ['The Aln is 68 kilometres long.', 'contradicted', 'qa_wrong'],
      [
        'The Aln runs 86 kilometres from the Breck Hills to Westmouth. Otters came back in 2015 after old tannery sites were cleaned, and a weir was removed in 2020 to help salmon.',
        'supported',
        'summary_faithful',
      ],
      [
        'The Aln runs 86 kilometres from the Breck Hills to Westmouth. Otters came back in 2015 after a new dam was built at Millbrook.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-software',
    lang: 'en',
    passage:
      'Version 5 of the Quill text editor was released on 2 February 2025. It adds real-time collaboration for up to ten users and drops support for Windows 8. The update is free for existing customers, while new licences cost 49 dollars a year. Quill is developed by Bramble Labs, a company of about 70 people based in Tallinn.',
    claims: [
      ['Customers who already own Quill get the update at no charge.', 'supported', 'reworded'],
      [
        'Bramble Labs, which makes Quill, has around 70 employees and is located in Tallinn.',
        'supported',
        'reworded',
      ],
      ['Quill is developed by Tallinn Labs, a company of about 70 people.', 'contradicted', 'entity_swap'],
      ['Up to ten users can edit together in real time.', 'supported', 'qa_right'],
      ['Up to fifty users can edit together in real time.', 'contradicted', 'qa_wrong'],
      [
        'Quill 5 came out in February 2025 with live collaboration for as many as ten people. A new licence costs 49 dollars per year, and Windows 8 is no longer supported.',
        'supported',
        'summary_faithful',
      ],
      [
        'Quill 5 came out in February 2025 with live collaboration for as many as ten people. It is the first version that runs on Windows 8.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-museum',
    lang: 'en',
    passage:
      'The Kerrow Museum of Maps holds about 12,000 charts, the oldest drawn in 1540 by the Flemish cartographer Joris Vermeulen. Entry is free on the first Sunday of each month. The museum moved into a former customs house on Quay Street in 2010. Its director, Anna Lindqvist, plans to put the whole collection online by 2027.',
    claims: [
      ['On the first Sunday of every month, visitors do not have to pay to get in.', 'supported', 'reworded'],
      [
        'The collection should be available online in its entirety by 2027, according to the plans of director Anna Lindqvist.',
        'supported',
        'reworded',
      ],
      [
        'The oldest chart in the Kerrow Museum was drawn in 1540 by the Flemish cartographer Anna Vermeulen.',
        'contradicted',
        'entity_swap',
      ],
      ['The museum has been housed in a former customs house since 2010.', 'supported', 'qa_right'],
      ['The museum has been housed in a former railway station since 2010.', 'contradicted', 'qa_wrong'],
      [
        'Housed since 2010 in an old customs house, the Kerrow Museum keeps some 12,000 maps, the earliest from 1540. Admission costs nothing on the first Sunday of the month.',
        'supported',
        'summary_faithful',
      ],
      [
        'Housed since 2010 in an old customs house, the Kerrow Museum keeps some 12,000 maps. Its director has already put the whole collection online.',
        'contradicted',
        'summary_unfaithful',
      ],
    ],
  },
  {
    id: 'en-wind',
    lang: 'en',
    passage:
      'The Greyhaven wind farm, 30 kilometres off the coast of Norbury, began operating in 2018. Its 48 turbines produce enough electricity for about 260,000 homes. The farm is owned by Solent Power and a pension fund from Ontario. Maintenance crews are based in the port of Norbury.',
    claims: [
      ['Electricity from the 48 turbines can supply around 260,000 households.', 'supported', 'reworded'],
      ['Solent Power shares ownership of the farm with an Ontario pension fund.', 'supported', 'reworded'],
      [
        'The Greyhaven wind farm is owned by Norbury Power and a pension fund from Ontario.',
        'contradicted',
        'entity_swap',
      ],
      ['The wind farm started producing power in 2018.', 'supported', 'qa_right'],
      ['The wind farm started producing power in 2012.', 'contradicted', 'qa_wrong'],
      [
        "Operating since 2018, the Greyhaven wind farm lies 30 kilometres off Norbury and has 48 turbines. Its maintenance teams work from Norbury's port.",
        'supported',
        'summary_faithful',
      ],
      [
        'Operating since 2018, the Greyhaven wind farm lies 30 kilometres off Norbury and has 48 turbines. It is the largest offshore wind farm in Europe.',
        'partially_supported',
        'summary_unfaithful',
      ],
    ],
  },
];
