import { Attr } from '../constants.js';
import { FrameAttr } from '../frame-config.js';

/**
 * The root of the top-level composition. The compiler lifts a root out of its `<template>`, so in the frame one
 * query finds it (html.ts's `compositionRoot` also looks into templates, which the frame never needs).
 */
export function compositionRoot(): Element | null {
  return document.querySelector(`[${Attr.compositionId}]`);
}

/** The element carrying the top level's declarations: `<html>` when it has them, else the composition root. */
export function topDeclaringElement(): Element {
  const html = document.documentElement;
  return html.hasAttribute(Attr.compositionVariables) ? html : (compositionRoot() ?? html);
}

/** Selects the root of one sub-composition instance. */
export function instanceSelector(instance: string): string {
  return `[${FrameAttr.instance}="${CSS.escape(instance)}"]`;
}
