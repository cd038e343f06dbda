/**
 * Node adapter: gives the runtime's static analysis (metadata, lint) a `DOMParser` that builds the same tree a
 * browser does. parse5 runs the HTML standard's tree construction (implied html/head/body, entities, templates,
 * raw-text elements); its tree is then copied node by node into a linkedom document, which provides the DOM API.
 * Copying (rather than serialising and re-parsing) matters: linkedom's own parser does not know every raw-text
 * element (`<iframe>`, `<noembed>`, `<plaintext>` …), so a round trip would turn their text back into elements.
 *
 * Both are optional peer dependencies, loaded on the first parse: the Node client (zips, `/v3`, sign-in) works
 * without them, and a parse without them is a typed error naming the install command, not ERR_MODULE_NOT_FOUND at
 * import. (Dependencies of fx-sdk instead would install them for every browser app too.)
 */
import { createRequire } from 'node:module';
import type * as Linkedom from 'linkedom';
import type * as Parse5 from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { FxError, RuntimeErrorCode } from './errors.js';

type SourceNode = DefaultTreeAdapterMap['childNode'];
type SourceParent = DefaultTreeAdapterMap['parentNode'];

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

interface LinkedomDocument {
  createDocumentType(name: string, publicId: string, systemId: string): Node;
}

/** What `npm i` the parse needs, said where it is missing. */
const PEERS_MISSING =
  'fx-sdk/node parses HTML with parse5 and linkedom, optional peer dependencies of fx-sdk: npm i parse5 linkedom';

let parsers: { readonly linkedom: typeof Linkedom; readonly parse5: typeof Parse5 } | undefined;

/** linkedom and parse5, required on first use (Node 20.19+ requires ES modules synchronously). */
function loadParsers(): NonNullable<typeof parsers> {
  if (parsers) return parsers;
  const require = createRequire(import.meta.url);
  try {
    parsers = { linkedom: require('linkedom') as typeof Linkedom, parse5: require('parse5') as typeof Parse5 };
  } catch (error) {
    if ((error as { code?: string })?.code !== 'MODULE_NOT_FOUND') throw error;
    throw new FxError(RuntimeErrorCode.htmlParserUnavailable, PEERS_MISSING, { cause: error });
  }
  return parsers;
}

class SpecDOMParser {
  parseFromString(html: string, type: DOMParserSupportedType): Document {
    const { linkedom, parse5 } = loadParsers();
    const LinkedomParser = linkedom.DOMParser;
    if (type !== 'text/html') {
      return new LinkedomParser().parseFromString(html, 'text/xml') as unknown as Document;
    }
    // A DOMParser document has no browsing context, so scripting is off: `<noscript>` content is markup.
    const source = parse5.parse(String(html), { scriptingEnabled: false });
    const doc = new LinkedomParser().parseFromString('', 'text/html') as unknown as Document;
    doc.replaceChildren();
    copyChildren(source, doc, doc);
    return doc;
  }
}

/** Copies a parse5 subtree without recursion, so deeply nested markup cannot overflow the stack. */
function copyChildren(source: SourceParent, target: ParentNode, doc: Document): void {
  const pending: [SourceParent, ParentNode][] = [[source, target]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, into] = next;
    for (const child of from.childNodes as SourceNode[]) {
      const copy = copyNode(child, doc);
      into.appendChild(copy);
      if (child.nodeName === '#text' || child.nodeName === '#comment' || child.nodeName === '#documentType') continue;
      if (child.nodeName === 'template' && 'content' in child) {
        // Like a browser, a template's children live only in its inert content fragment.
        pending.push([child.content, (copy as HTMLTemplateElement).content]);
      } else if ('childNodes' in child) {
        pending.push([child, copy as Element]);
      }
    }
  }
}

function copyNode(node: SourceNode, doc: Document): Node {
  switch (node.nodeName) {
    case '#text':
      return doc.createTextNode((node as DefaultTreeAdapterMap['textNode']).value);
    case '#comment':
      return doc.createComment((node as DefaultTreeAdapterMap['commentNode']).data);
    case '#documentType': {
      const doctype = node as DefaultTreeAdapterMap['documentType'];
      // linkedom has no `implementation`; it puts `createDocumentType` on the document itself.
      return (doc as unknown as LinkedomDocument).createDocumentType(doctype.name, doctype.publicId, doctype.systemId);
    }
    default: {
      const source = node as DefaultTreeAdapterMap['element'];
      const element =
        source.namespaceURI === SVG_NAMESPACE
          ? doc.createElementNS(SVG_NAMESPACE, source.tagName)
          : doc.createElement(source.tagName);
      for (const { name, value, prefix } of source.attrs)
        element.setAttribute(prefix ? `${prefix}:${name}` : name, value);
      return element;
    }
  }
}

if (typeof globalThis.DOMParser !== 'function') {
  globalThis.DOMParser = SpecDOMParser as unknown as typeof DOMParser;
}
