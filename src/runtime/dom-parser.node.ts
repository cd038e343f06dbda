/**
 * Node adapter: gives the runtime's static analysis (metadata, lint) a `DOMParser` that builds the same tree a
 * browser does. parse5 runs the HTML standard's tree construction (implied html/head/body, entities, templates);
 * linkedom then provides the DOM API over that normalised document.
 */
import { DOMParser as LinkedomParser } from 'linkedom';
import { parse, serialize } from 'parse5';

class SpecDOMParser {
  parseFromString(html: string, type: DOMParserSupportedType): Document {
    const normalised = type === 'text/html' ? `<!DOCTYPE html>${serialize(parse(html))}` : html;
    return new LinkedomParser().parseFromString(normalised, type === 'text/html' ? type : 'text/xml') as unknown as Document;
  }
}

if (typeof globalThis.DOMParser !== 'function') {
  globalThis.DOMParser = SpecDOMParser as unknown as typeof DOMParser;
}
