/**
 * A CSS-selector-like path naming an element for a refusal (`div#card > img:nth-of-type(2)`): from the document's
 * body (exclusive) down, an id where there is one, else the position among siblings of its kind where it has some.
 */
export function whereOf(element: Element): string {
  const steps: string[] = [];
  for (let node: Element | null = element; node && node !== document.body && node !== document.documentElement;) {
    const parent: Element | null = node.parentElement;
    let step = node.localName;
    if (node.id) step += `#${CSS.escape(node.id)}`;
    else if (parent) {
      const kin = [...parent.children].filter((sibling) => sibling.localName === node!.localName);
      if (kin.length > 1) step += `:nth-of-type(${kin.indexOf(node) + 1})`;
    }
    steps.unshift(step);
    node = parent;
  }
  return steps.join(' > ');
}
