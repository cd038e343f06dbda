import { Attr } from './constants.js';
import { FxError, RuntimeErrorCode } from './errors.js';

/**
 * Parses HTML with the platform's `DOMParser`: the browser's own in a page, and in Node the spec-compliant one
 * that `dom-parser.node.ts` installs. Scripts in the result never run.
 */
export function parseHtml(html: string): Document {
  const Parser = globalThis.DOMParser;
  if (typeof Parser !== 'function') {
    throw new FxError(
      RuntimeErrorCode.htmlParserUnavailable,
      'no DOMParser in this environment; in Node, import from "fx-sdk/node" (in this repository, import "src/runtime/dom-parser.node.ts" first)',
    );
  }
  return new Parser().parseFromString(html, 'text/html');
}

/** Every element matching `selector` in document order, including inside `<template>` contents. */
export function queryAllDeep(root: ParentNode, selector: string): Element[] {
  const found: Element[] = [];
  const visit = (node: ParentNode) => {
    for (const element of node.querySelectorAll(`${selector}, template`)) {
      if (element.matches(selector)) found.push(element);
      if (element.localName === 'template') visit((element as HTMLTemplateElement).content);
    }
  };
  visit(root);
  return found;
}

/** The outermost `[data-composition-id]` element (looking into templates), if any. */
export function compositionRoot(doc: Document): Element | undefined {
  return queryAllDeep(doc, `[${Attr.compositionId}]`)[0];
}

/**
 * The element that carries `data-composition-variables`: `<html>` of a full document when it has the attribute,
 * else the composition root of a fragment or template.
 */
export function declarationRoot(doc: Document): Element | undefined {
  const html = doc.documentElement;
  if (html?.hasAttribute(Attr.compositionVariables)) return html;
  return compositionRoot(doc) ?? html ?? undefined;
}
