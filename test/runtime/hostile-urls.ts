/**
 * Hostile (and harmless-looking) media URL vectors with the verdict `safeMediaUrl` must reach. Each verdict was
 * decided from the WHATWG URL parser (leading/trailing C0 controls and spaces are stripped, tab/CR/LF removed
 * anywhere, everything else kept) and our rule: after `new URL(value, base)`, only `http:`, `https:`, `blob:` and
 * `data:` whose Fetch-processed MIME type is `image/…` pass; blank strings and non-strings never do.
 * A vector with `via` is the text before a decoder ran: the HTML parser (an attribute value) or `JSON.parse`.
 * A vector with `firefox` gets another verdict in Firefox, whose own URL parser decides otherwise: `safeMediaUrl`
 * follows the parser of the browser it runs in (use {@link verdictHere}).
 */
import { isFirefox } from '../browsers.js';

export type Verdict = 'safe' | 'refused';
export type Decoder = 'html-attribute' | 'json';

export interface UrlVector {
  readonly name: string;
  readonly input: unknown;
  readonly verdict: Verdict;
  readonly via?: Decoder;
  readonly firefox?: Verdict;
}

/** The verdict in the browser running the test. */
export const verdictHere = (vector: UrlVector): Verdict => (isFirefox && vector.firefox) || vector.verdict;

/** What a payload posts to the page that hosts it, so a test can tell that script ran. */
export const PWNED_MESSAGE = 'fx-pwned';

const post = `parent.postMessage('${PWNED_MESSAGE}','*')`;
const scriptHtml = `<script>${post}</script>`;
const svgWithScript = `<svg xmlns="http://www.w3.org/2000/svg" onload="${post}"/>`;
const PNG_B64 = 'iVBORw0KGgo=';

const safe = (name: string, input: unknown, via?: Decoder): UrlVector => ({
  name,
  input,
  verdict: 'safe',
  ...(via && { via }),
});
const refused = (name: string, input: unknown, via?: Decoder): UrlVector => ({
  name,
  input,
  verdict: 'refused',
  ...(via && { via }),
});

const javascriptScheme: UrlVector[] = [
  refused('javascript: alert', 'javascript:alert(1)'),
  refused('upper-case JAVASCRIPT:', 'JAVASCRIPT:alert(1)'),
  refused('mixed-case JaVaScRiPt:', 'JaVaScRiPt:alert(1)'),
  refused('javascript: setting window.__pwned', 'javascript:window.__pwned=1'),
  refused('javascript: setting parent.__pwned', 'javascript:parent.__pwned=1'),
  refused('javascript: posting to the parent', `javascript:${post}`),
  refused('javascript:// comment then newline', 'javascript://%0Aalert(1)'),
  refused('javascript:void(0)', 'javascript:void(0)'),
  refused('a bare javascript: scheme', 'javascript:'),
  refused('javascript: ending in .png', 'javascript:alert(1)//.png'),
  refused('javascript: with a .png fragment', 'javascript:alert(1)#.png'),
  refused('javascript: with a query-looking tail', 'javascript:alert(1)?x.png'),
  refused('a leading space', ' javascript:alert(1)'),
  refused('spaces around', '   javascript:alert(1)   '),
  refused('a leading tab', '\tjavascript:alert(1)'),
  refused('a leading newline', '\njavascript:alert(1)'),
  refused('a leading CRLF', '\r\njavascript:alert(1)'),
  refused('a leading NUL', '\0javascript:alert(1)'),
  refused('a leading \\x01', '\x01javascript:alert(1)'),
  refused('a leading backspace', '\bjavascript:alert(1)'),
  refused('a leading vertical tab', '\vjavascript:alert(1)'),
  refused('a leading form feed', '\fjavascript:alert(1)'),
  refused('a leading \\x1f', '\x1fjavascript:alert(1)'),
  refused(
    'every C0 control and space leading',
    `${Array.from({ length: 33 }, (_, code) => String.fromCharCode(code)).join('')}javascript:alert(1)`,
  ),
  refused('a tab inside the scheme', 'java\tscript:alert(1)'),
  refused('a newline inside the scheme', 'java\nscript:alert(1)'),
  refused('a carriage return inside the scheme', 'java\rscript:alert(1)'),
  refused('tabs and newlines all through the scheme', 'j\ta\nv\ra\tscript:alert(1)'),
  refused('a tab before the colon', 'javascript\t:alert(1)'),
  refused('a trailing NUL', 'javascript:alert(1)\0'),
  refused('trailing controls and spaces', 'javascript:alert(1)\x1f \0'),
  refused('a srcset-like string that starts with javascript:', 'javascript:alert(1) 1x, a.png 2x'),
];

// What the URL parser does not strip turns the text into a relative path, which resolves to the page's own origin.
const notStrippedSoRelative: UrlVector[] = [
  safe('a leading no-break space (not stripped: a relative path)', '\u00a0javascript:alert(1)'),
  safe('a leading ideographic space', '\u3000javascript:alert(1)'),
  safe('a leading byte-order mark', '\ufeffjavascript:alert(1)'),
  safe('a leading line separator', '\u2028javascript:alert(1)'),
  safe('a leading DEL (not a C0 control)', '\x7fjavascript:alert(1)'),
  safe('a NUL inside the scheme', 'java\0script:alert(1)'),
  safe('a \\x01 inside the scheme', 'java\x01script:alert(1)'),
  safe('a space inside the scheme', 'java script:alert(1)'),
  safe('a no-break space inside the scheme', 'java\u00a0script:alert(1)'),
  safe('a zero-width space inside the scheme', 'java\u200bscript:alert(1)'),
  safe('a scheme starting with a digit', '1javascript:alert(1)'),
];

const otherSchemes: UrlVector[] = [
  refused('vbscript:', 'vbscript:msgbox(1)'),
  refused('mixed-case VBScript:', 'VBScript:MsgBox(1)'),
  refused('livescript:', 'livescript:alert(1)'),
  refused('mocha:', 'mocha:alert(1)'),
  refused('x-javascript:', 'x-javascript:alert(1)'),
  refused('file: absolute path', 'file:///etc/passwd'),
  refused('upper-case FILE: with a drive', 'FILE:///C:/Windows/win.ini'),
  refused('file: with a host', 'file://host.example.invalid/share/x.png'),
  refused('file: relative', 'file:x.png'),
  refused('ftp:', 'ftp://cdn.example.invalid/x.png'),
  refused('ws:', 'ws://cdn.example.invalid/'),
  refused('wss:', 'wss://cdn.example.invalid/'),
  refused('about:blank', 'about:blank'),
  refused('about:srcdoc', 'about:srcdoc'),
  refused('chrome:', 'chrome://settings'),
  refused('chrome-extension:', 'chrome-extension://abcdefghijklmnop/x.png'),
  refused('view-source:', 'view-source:https://cdn.example.invalid/'),
  refused('mailto:', 'mailto:someone@example.invalid'),
  refused('tel:', 'tel:+100'),
  refused('filesystem:', 'filesystem:https://cdn.example.invalid/temporary/x.png'),
  refused('jar:', 'jar:https://cdn.example.invalid/a.jar!/x.png'),
  refused('mhtml:', 'mhtml:https://cdn.example.invalid/a.mht'),
  refused('intent:', 'intent://x#Intent;scheme=javascript;end'),
  refused('web+ custom scheme', 'web+fx:x.png'),
  refused('a:b is a scheme', 'a:b'),
  refused('img: is a scheme', 'img:x.png'),
  refused('a dotted name before a colon is a scheme', 'x.png:1'),
  refused('a scheme using + - and .', 'a+b-c.d:e'),
  refused('a Windows drive path (scheme c:)', 'c:\\images\\x.png'),
  refused('a drive path with slashes', 'C:/images/x.png'),
];

const dataUrls: UrlVector[] = [
  refused('data:text/html with script', `data:text/html,${scriptHtml}`),
  refused('data:text/html base64', `data:text/html;base64,${btoa(scriptHtml)}`),
  refused('upper-case DATA:TEXT/HTML', `DATA:TEXT/HTML,${scriptHtml}`),
  refused('data:text/html with a charset', `data:text/html;charset=utf-8,${scriptHtml}`),
  refused('data:text/html with an img onerror', `data:text/html,<img src=x onerror="${post}">`),
  refused('data:application/javascript', `data:application/javascript,${post}`),
  refused('data:text/javascript', `data:text/javascript,${post}`),
  refused(
    'data:application/xhtml+xml',
    `data:application/xhtml+xml,<html xmlns="http://www.w3.org/1999/xhtml">${scriptHtml}</html>`,
  ),
  refused('data:text/xml', 'data:text/xml,<x/>'),
  refused('data:application/pdf', 'data:application/pdf,x'),
  refused('data:, (text/plain)', 'data:,alert(1)'),
  refused('data:,image/png (image/png is the body)', 'data:,image/png'),
  refused('data:text/html;image/png, (image/png is a parameter)', `data:text/html;image/png,${scriptHtml}`),
  refused('data:text/html,image/png', 'data:text/html,image/png'),
  refused('data:text/plain base64 of "image/png"', `data:text/plain;base64,${btoa('image/png')}`),
  refused('data:image/png without a comma', 'data:image/png'),
  refused('data:image/png;base64 without a comma', 'data:image/png;base64'),
  refused('data:image/png;foo without a comma', 'data:image/png;foo'),
  refused('a bare data:', 'data:'),
  refused('data:;base64, (text/plain)', 'data:;base64,AAAA'),
  refused('data:image without a subtype', 'data:image,x'),
  refused('data:image/ with an empty subtype', 'data:image/,x'),
  refused('a space before the slash', 'data:image /png,x'),
  refused('a space after the slash', 'data:image/ png,x'),
  refused('a space inside the subtype', 'data:image/png x,y'),
  refused('type imagefoo', 'data:imagefoo/png,x'),
  refused('type images', 'data:images/png,x'),
  refused('a control character before image/ (percent-encoded by the parser)', 'data:\x01image/png,x'),
  refused('a percent-encoded i in image (not decoded in the MIME type)', 'data:%69mage/png,x'),
  refused('a percent-encoded slash', 'data:image%2Fpng,x'),
  refused('image/png base64 with invalid characters', 'data:image/png;base64,!!!'),
  refused('image/png base64 one character long', 'data:image/png;base64,A'),
  refused('image/png base64 with a misplaced =', 'data:image/png;base64,AA=A'),
  refused('";base64 " with a body that is not base64', 'data:image/png;base64 ,x'),
  safe('data:image/png;base64', `data:image/png;base64,${PNG_B64}`),
  safe('data:image/png;base64 with an empty body', 'data:image/png;base64,'),
  safe('data:image/gif;base64', 'data:image/gif;base64,R0lGODlhAQABAAAAACw='),
  safe('upper-case DATA:IMAGE/PNG;BASE64', `DATA:IMAGE/PNG;BASE64,${PNG_B64}`),
  safe('data:image/svg+xml with an onload script (no script runs in an image)', `data:image/svg+xml,${svgWithScript}`),
  safe('data:image/svg+xml base64 with an onload script', `data:image/svg+xml;base64,${btoa(svgWithScript)}`),
  safe('data:image/svg+xml with a charset, percent-encoded', 'data:image/svg+xml;charset=utf-8,%3Csvg%3E%3C/svg%3E'),
  safe('data: image/png (leading space stripped from the MIME type)', 'data: image/png,x'),
  safe('data:image/png , (trailing space stripped)', 'data:image/png ,x'),
  safe('a space between ; and base64', `data:image/png; base64,${PNG_B64}`),
  safe('parameters before ;base64', `data:image/png;charset=utf-8;base64,${PNG_B64}`),
  safe('base64 with whitespace in the body', 'data:image/png;base64,iVBO Rw0K Ggo='),
  safe('data:image/webp', 'data:image/webp,x'),
  safe('data:image/x-icon', 'data:image/x-icon,x'),
  safe('image/png with a text/html parameter', `data:image/png;text/html,${scriptHtml}`),
  safe('script text inside an image body', `data:image/png,${scriptHtml}`),
  safe('a leading tab before data:', '\tdata:image/png,x'),
  // Firefox (ESR 153) does not remove a tab or newline inside a scheme: `new URL` throws, and Firefox cannot load it.
  { ...safe('a newline inside the data scheme', 'da\nta:image/png,x'), firefox: 'refused' },
  safe('a tab before the comma', 'data:image/png\t,x'),
  safe('a fragment after the body', 'data:image/png,x#<script>'),
  safe('a percent-encoded subtype is still type image', 'data:image/p%6Eg,x'),
];

const webUrls: UrlVector[] = [
  safe('https:', 'https://cdn.example.invalid/x.png'),
  safe('http:', 'http://cdn.example.invalid/x.png'),
  safe('upper-case HTTPS:', 'HTTPS://CDN.EXAMPLE.INVALID/X.PNG'),
  safe('mixed-case hTtPs:', 'hTtPs://cdn.example.invalid/x.png'),
  safe('https: with spaces around', '  https://cdn.example.invalid/x.png  '),
  safe('https: with a leading NUL', '\0https://cdn.example.invalid/x.png'),
  safe('a tab inside https', 'ht\ttps://cdn.example.invalid/x.png'),
  safe('https: with user and password', 'https://user:pw@cdn.example.invalid/x.png'),
  safe('https: with port, query and fragment', 'https://cdn.example.invalid:8443/x.png?w=1#t'),
  safe('an IPv6 host', 'https://[::1]/x.png'),
  safe('an IPv4 host', 'http://127.0.0.1/x.png'),
  safe('a punycode host', 'https://xn--nxasmq6b.invalid/x.png'),
  safe('javascript: in the path of an https URL', 'https://cdn.example.invalid/javascript:alert(1)'),
  safe('javascript: in the query of an https URL', 'https://cdn.example.invalid/?u=javascript:alert(1)'),
  safe('http:x (host x)', 'http:x'),
  safe('https:x.png (relative to an https base)', 'https:x.png'),
  safe('http:/x.png (host x.png)', 'http:/x.png'),
  safe('protocol-relative //host', '//cdn.example.invalid/x.png'),
  safe('/\\host (backslash is a slash)', '/\\cdn.example.invalid/x.png'),
  safe('\\\\host (backslashes are slashes)', '\\\\cdn.example.invalid\\x.png'),
  safe('three slashes', '///cdn.example.invalid/x.png'),
  refused('an unclosed IPv6 host', 'http://['),
  refused('https:// without a host', 'https://'),
  // Not 'http://exa mple/': Chromium percent-encodes a space in a host where the WHATWG parser fails.
  refused('an invalid percent-escape in the host', 'https://%zz/x.png'),
  refused('a caret in the host', 'http://cdn^example.invalid/x.png'),
  refused('a forbidden host character', 'https://cdn<example.invalid/x.png'),
  refused('a port out of range', 'https://cdn.example.invalid:99999/x.png'),
  safe('blob: with an https origin', 'blob:https://app.example.invalid/6f1c2a9e-0c4b-4d2a-9c53-2f3c8e6a1b7d'),
  safe('blob: with a null origin', 'blob:null/6f1c2a9e-0c4b-4d2a-9c53-2f3c8e6a1b7d'),
  safe('upper-case BLOB:', 'BLOB:https://app.example.invalid/6f1c2a9e'),
  safe('blob:javascript: (only a registered blob can load)', 'blob:javascript:alert(1)'),
  safe('a bare blob:', 'blob:'),
];

const relativePaths: UrlVector[] = [
  safe('a.png', 'a.png'),
  safe('./a.png', './a.png'),
  safe('../a.png', '../a.png'),
  safe('a path climbing above the root', '../../../../etc/passwd'),
  safe('/a.png', '/a.png'),
  safe('?q', '?q'),
  safe('#h', '#h'),
  safe('a/b:c (the colon is after a slash)', 'a/b:c'),
  safe('javascript: after a folder', 'images/javascript:alert(1)'),
  safe('./javascript:', './javascript:alert(1)'),
  safe('%6Aavascript: (percent is not a scheme character)', '%6Aavascript:alert(1)'),
  safe('javascript%3Aalert(1) (no colon: a path)', 'javascript%3Aalert(1)'),
  safe('a fully percent-encoded javascript:', '%6A%61%76%61%73%63%72%69%70%74%3Aalert(1)'),
  safe('a srcset-like string (one relative path in src)', 'a.png 1x, javascript:alert(1) 2x'),
  safe('a srcset-like string of images', ' a.png 1x, b.png 2x'),
  safe('a Cyrillic a in javascript', 'j\u0430vascript:alert(1)'),
  safe('a full-width j', '\uff4aavascript:alert(1)'),
  safe('a full-width colon', 'javascript\uff1aalert(1)'),
  safe('a dotless i', 'javascr\u0131pt:alert(1)'),
  safe('an HTML entity left undecoded', '&#x6A;avascript:alert(1)'),
  safe('a JSON escape left undecoded (backslash is a slash)', '\\u006aavascript:alert(1)'),
  safe('a lone surrogate (parsed as U+FFFD)', '\ud800javascript:alert(1)'),
];

const longStrings: UrlVector[] = [
  safe('a 100 000-character relative path', `${'a'.repeat(100_000)}.png`),
  safe('a 100 000-character https path', `https://cdn.example.invalid/${'x/'.repeat(50_000)}`),
  safe('a 200 000-character base64 image', `data:image/png;base64,${'A'.repeat(200_000)}`),
  refused('a 100 000-character javascript: URL', `javascript:${'a'.repeat(100_000)}`),
  refused('10 000 spaces before javascript:', `${' '.repeat(10_000)}javascript:alert(1)`),
  refused('5 000 tabs before javascript:', `${'\t'.repeat(5_000)}javascript:alert(1)`),
  refused('a 30 000-character data:text/html', `data:text/html,${'<b>'.repeat(10_000)}`),
];

// A blank src resolves to the document itself, which is never the media meant.
const blanks: UrlVector[] = [
  refused('the empty string', ''),
  refused('one space', ' '),
  refused('spaces only', '   '),
  refused('tab, CR and LF only', '\t\r\n'),
  refused('NUL only', '\0'),
  refused('C0 controls only', '\x01\x02\x1f'),
  refused('a no-break space only', '\u00a0'),
  refused('ideographic space and line separator only', '\u3000\u2028'),
  refused('a byte-order mark only', '\ufeff'),
];

const nonStrings: UrlVector[] = [
  refused('null', null),
  refused('undefined', undefined),
  refused('the number 42', 42),
  refused('the number 0', 0),
  refused('NaN', Number.NaN),
  refused('true', true),
  refused('false', false),
  refused('a bigint', 10n),
  refused('a symbol', Symbol('https://cdn.example.invalid/x.png')),
  refused('an empty object', {}),
  refused('an empty array', []),
  refused('an array holding a safe URL', ['https://cdn.example.invalid/x.png']),
  refused('a String object', new String('https://cdn.example.invalid/x.png')),
  refused('a URL object', new URL('https://cdn.example.invalid/x.png')),
  refused('an object whose toString is a safe URL', { toString: () => 'a.png' }),
  refused('a function', () => 'a.png'),
];

// Attribute text as authored in HTML; the HTML parser decodes character references before the runtime sees it.
const htmlDecoded: UrlVector[] = [
  refused('java&#x09;script: (a decoded tab)', 'java&#x09;script:alert(1)', 'html-attribute'),
  refused('java&#9;script:', 'java&#9;script:alert(1)', 'html-attribute'),
  refused('java&Tab;script:', 'java&Tab;script:alert(1)', 'html-attribute'),
  refused('java&#x0A;script:', 'java&#x0A;script:alert(1)', 'html-attribute'),
  refused('java&NewLine;script:', 'java&NewLine;script:alert(1)', 'html-attribute'),
  refused('jav&#x0D;ascript: (a decoded CR)', 'jav&#x0D;ascript:alert(1)', 'html-attribute'),
  refused('&#x6A;avascript:', '&#x6A;avascript:alert(1)', 'html-attribute'),
  refused(
    'every letter a decimal reference',
    '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
    'html-attribute',
  ),
  refused('references without semicolons', '&#x6A&#x61vascript:alert(1)', 'html-attribute'),
  refused('javascript&colon;', 'javascript&colon;alert(1)', 'html-attribute'),
  refused('javascript&#x3A;', 'javascript&#x3A;alert(1)', 'html-attribute'),
  refused('JaVa&#x53;cRiPt:', 'JaVa&#x53;cRiPt:alert(1)', 'html-attribute'),
  refused('a leading &#x01;', '&#x01;javascript:alert(1)', 'html-attribute'),
  refused('leading &#x20; spaces', '&#x20;&#x20;javascript:alert(1)', 'html-attribute'),
  refused(
    'data&colon;text/html with escaped markup',
    `data&colon;text/html,&lt;script&gt;${post}&lt;/script&gt;`,
    'html-attribute',
  ),
  safe('a leading &nbsp; (a no-break space: a relative path)', '&nbsp;javascript:alert(1)', 'html-attribute'),
  safe('a leading &#0; (decoded as U+FFFD: a relative path)', '&#0;javascript:alert(1)', 'html-attribute'),
  safe('data:image/png&#59;base64,', `data:image/png&#59;base64,${PNG_B64}`, 'html-attribute'),
  safe('https&#58;//', 'https&#58;//cdn.example.invalid/x.png', 'html-attribute'),
  safe('&amp; in a query', 'https://cdn.example.invalid/x.png?a=1&amp;b=2', 'html-attribute'),
];

// JSON text as a host would send it in data-variable-values; JSON.parse decodes the escapes.
const jsonDecoded: UrlVector[] = [
  refused('\\u006aavascript:', '"\\u006aavascript:alert(1)"', 'json'),
  refused('java\\u0009script:', '"java\\u0009script:alert(1)"', 'json'),
  refused('java\\nscript:', '"java\\nscript:alert(1)"', 'json'),
  refused('a leading \\u0000', '"\\u0000javascript:alert(1)"', 'json'),
  refused('javascript\\u003a', '"javascript\\u003aalert(1)"', 'json'),
  refused('JAVASCRIPT\\u003A', '"JAVASCRIPT\\u003Aalert(1)"', 'json'),
  refused('\\u0064ata:text/html', '"\\u0064ata:text/html,\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"', 'json'),
  safe('a leading \\u00a0 (a relative path)', '"\\u00a0javascript:alert(1)"', 'json'),
  safe('escaped slashes in https', '"https:\\/\\/cdn.example.invalid\\/x.png"', 'json'),
  safe('a lone surrogate escape', '"\\ud800javascript:alert(1)"', 'json'),
];

export const HOSTILE_URLS: readonly UrlVector[] = [
  ...javascriptScheme,
  ...notStrippedSoRelative,
  ...otherSchemes,
  ...dataUrls,
  ...webUrls,
  ...relativePaths,
  ...longStrings,
  ...blanks,
  ...nonStrings,
  ...htmlDecoded,
  ...jsonDecoded,
];

/** The value that reaches the runtime: the input itself, or what the HTML parser or `JSON.parse` made of it. */
export function vectorValue(vector: UrlVector): unknown {
  if (vector.via === 'json') return JSON.parse(String(vector.input));
  if (vector.via === 'html-attribute') {
    // DOMParser documents are inert: nothing loads and no script runs while the attribute is decoded.
    const doc = new DOMParser().parseFromString(`<p data-value="${String(vector.input)}"></p>`, 'text/html');
    return doc.querySelector('p')?.getAttribute('data-value');
  }
  return vector.input;
}

/** A short, printable label for test names. */
export function vectorLabel(vector: UrlVector): string {
  return `${vector.name}${vector.via ? ` (via ${vector.via})` : ''}`;
}

/**
 * URLs a composition may name for the compiler to read (sub-compositions, stylesheets, scripts, fonts), with the
 * verdict of the read scope (src/runtime/compile/reads.ts) for an entry at {@link READ_SCOPE_ENTRY}: `inside` its
 * folder or `outside`. The tricks are those that make a string look inside while the URL parser (or a server that
 * decodes before resolving `..`) puts it elsewhere.
 */
export const READ_SCOPE_ENTRY = 'https://host.example/comps/intro/index.html';

export interface ReadScopeVector {
  readonly name: string;
  readonly input: string;
  readonly verdict: 'inside' | 'outside';
}

const inside = (name: string, input: string): ReadScopeVector => ({ name, input, verdict: 'inside' });
const outside = (name: string, input: string): ReadScopeVector => ({ name, input, verdict: 'outside' });

export const READ_SCOPE_URLS: readonly ReadScopeVector[] = [
  inside('a sibling file', 'card.html'),
  inside('a file in a subfolder', 'parts/card.html'),
  inside('a dot segment that stays inside', 'parts/../card.html'),
  inside('an encoded letter', '%63ard.html'),
  inside('query and fragment', 'card.html?v=2#top'),
  inside('the absolute URL of a sibling', 'https://host.example/comps/intro/card.css'),
  inside('the default port spelled out', 'https://host.example:443/comps/intro/card.css'),
  inside('an upper-case host', 'https://HOST.example/comps/intro/card.css'),
  inside('a trailing newline the parser strips', 'card.css\n'),
  inside('a data: stylesheet (reads nothing of the host)', 'data:text/css,p{color:red}'),
  outside('the parent folder', '../shared/card.css'),
  outside('an origin-relative path', '/comps/shared/card.css'),
  outside('the folder itself without its slash', '/comps/intro'),
  outside('a sibling folder sharing the prefix', '/comps/intro-private/secret.css'),
  outside('%2e%2e (the parser makes it ..)', '%2e%2e/shared/card.css'),
  outside('.%2E (mixed dot segment)', '.%2E/shared/card.css'),
  outside('a backslash (a separator in http URLs)', '..\\shared\\card.css'),
  outside('an encoded slash a server might decode', '..%2fshared/card.css'),
  outside('an encoded slash inside the folder', 'parts%2F..%2F..%2Fsecret.css'),
  outside('an encoded backslash', '..%5cshared/card.css'),
  outside('leading blanks before ..', '  ../shared/card.css'),
  outside('credentials in the URL', 'https://user:pass@host.example/comps/intro/card.css'),
  outside('a user name alone', 'https://user@host.example/comps/intro/card.css'),
  outside('the same path over http', 'http://host.example/comps/intro/card.css'),
  outside('another port', 'https://host.example:8443/comps/intro/card.css'),
  outside('a trailing dot on the host', 'https://host.example./comps/intro/card.css'),
  outside('a subdomain', 'https://api.host.example/comps/intro/card.css'),
  outside('a scheme-relative URL to another host', '//evil.example/comps/intro/card.css'),
  outside('loopback', 'http://127.0.0.1/comps/intro/card.css'),
  outside('cloud metadata', 'http://169.254.169.254/latest/meta-data/'),
  outside('a file: URL', 'file:///etc/passwd'),
  outside('a blob: URL of the host origin', 'blob:https://host.example/6f1c2c1e-7c1b-4b8e-9d55-0c1f6f0d2a11'),
  outside('javascript:', 'javascript:alert(1)'),
];
