import { Parser } from 'htmlparser2';

/** Elements whose content is never page text: code, styling, and the menus repeated on every page. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'nav',
  'iframe',
  'head',
]);
/** Elements that end a line of text, so words of adjacent blocks never run together. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'br',
  'li',
  'ul',
  'ol',
  'table',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'dt',
  'dd',
  'figcaption',
  'hr',
]);

export interface HtmlText {
  title: string | null;
  /** Paragraphs separated by blank lines. */
  text: string;
  /** href values of links, as written (resolve them against the page URL). */
  links: string[];
  /** `<meta name="robots" content="noindex">` or `nofollow`. */
  noindex: boolean;
  nofollow: boolean;
}

/** HTML to plain text with htmlparser2: paragraphs per block element, links collected on the way. */
export function htmlToText(html: string): HtmlText {
  const lines: string[] = [];
  let line = '';
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  const links: string[] = [];
  let noindex = false;
  let nofollow = false;
  const endLine = () => {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title') inTitle = true;
        if (name === 'meta' && attrs['name']?.toLowerCase() === 'robots') {
          const c = (attrs['content'] ?? '').toLowerCase();
          noindex ||= c.includes('noindex') || c.includes('none');
          nofollow ||= c.includes('nofollow') || c.includes('none');
        }
        if (name === 'a' && attrs['href'] && !/\bnofollow\b/i.test(attrs['rel'] ?? ''))
          links.push(attrs['href']);
        if (SKIPPED.has(name)) skipDepth++;
        else if (BLOCKS.has(name)) endLine();
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (skipDepth === 0) line += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        else if (BLOCKS.has(name)) endLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  endLine();
  const t = title.replace(/\s+/g, ' ').trim();
  return { title: t || null, text: lines.join('\n\n'), links, noindex, nofollow };
}
