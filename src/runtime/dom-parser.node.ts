/**
 * Node adapter: gives the runtime's static analysis (metadata, lint) a `DOMParser` that builds the same tree a
 * browser does. parse5 runs the HTML standard's tree construction (implied html/head/body, entities, templates,
 * raw-text elements); its tree is then copied node by node into a linkedom document, which provides the DOM API.
 * Copying (rather than serialising and re-parsing) matters: linkedom's own parser does not know every raw-text
 * element (`<iframe>`, `<noembed>`, `<plaintext>` …), so a round trip would turn their text back into elements.
 */
import { DOMParser as LinkedomParser } from 'linkedom';
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type SourceNode = DefaultTreeAdapterMap['childNode'];
type SourceParent = DefaultTreeAdapterMap['parentNode'];

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

interface LinkedomDocument {
  createDocumentType(name: string, publicId: string, systemId: string): Node;
}

class SpecDOMParser {
  parseFromString(html: string, type: DOMParserSupportedType): Document {
    if (type !== 'text/html') {
      return new LinkedomParser().parseFromString(html, 'text/xml') as unknown as Document;
    }
    // A DOMParser document has no browsing context, so scripting is off: `<noscript>` content is markup.
    const source = parse(String(html), { scriptingEnabled: false });
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
