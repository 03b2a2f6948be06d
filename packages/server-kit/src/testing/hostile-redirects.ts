/**
 * Redirect targets that lead a browser off the site once it reads them from a Location header (it drops
 * tabs and newlines, reads `\` as `/`, and some clients decode once more), as a caller would send them:
 * the raw text (a JSON body); put them in a query string with encodeURIComponent.
 */
export const HOSTILE_REDIRECTS = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '//evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  '/%2F/evil.example',
  '/%2f%2fevil.example',
  '/%5Cevil.example',
  '/%09/evil.example',
  '/%0d%0a/evil.example',
  'https://evil.example/',
  '//evil.example@127.0.0.1',
  'javascript:alert(1)',
] as const;
