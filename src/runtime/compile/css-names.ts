/**
 * The document-wide names a stylesheet defines — `@keyframes`, `@property` and `@font-face` families — cannot be
 * scoped with `@scope`: a sub-composition defining `@keyframes fade` would replace its parent's `fade`. So the
 * compiler keeps a register of definitions, first come first kept (the entry's own styles, then each instance
 * before those nested in it), and renames a sub-composition's definition that clashes with a *different* one
 * already registered to `fx-<instance>-<name>`, rewriting its uses in that instance's CSS (animation names, font
 * families, custom property names and `var()`s) and in its elements' `style` attributes. Identical definitions
 * (the same source mounted twice) keep their name. An instance's `@property` is always its own (renamed) unless the
 * entry registers the same one: a registration retypes the name everywhere, the parent's unregistered `--accent`
 * included. Uses the stylesheet cannot show are not rewritten: names set
 * by scripts (`el.style.animation = 'fade 1s'`) or carried in custom properties (`animation: var(--a)`,
 * a font variable naming the sub-composition's own family) reach the first definition.
 *
 * Custom properties the runtime sets — `--{id}` of each declared variable, inline on the instance root — keep
 * their names: when a renamed `@property` is a declared id, the instance root gets
 * `--fx-<instance>-<id>: var(--<id>) !important`, so the instance's value reaches the renamed, typed property.
 * `--<id>` itself stays under the parent's registration (there is one per document): a value the parent's syntax
 * refuses (the parent registers `<length>`, the instance's value is a number) reaches the instance as the initial
 * value. Registrations made by scripts (`CSS.registerProperty`) are not renamed.
 */
type Kind = 'keyframes' | 'property' | 'font';

/** Old name → new name, per kind. */
export interface CssRenames {
  readonly keyframes: Map<string, string>;
  readonly property: Map<string, string>;
  /** Keys are lowercase: family names match case-insensitively. */
  readonly font: Map<string, string>;
}

interface Definition {
  readonly kind: Kind;
  readonly name: string;
  readonly rule: CSSRule;
}

export class CssNameRegister {
  readonly #defined = new Map<string, string>();
  /** The entry's own definitions. */
  readonly #entry = new Map<string, string>();

  /** Notes the definitions of a stylesheet that keeps its names (the entry's own). */
  register(sheet: CSSStyleSheet): void {
    for (const definition of definitions(sheet.cssRules)) {
      this.#defined.set(keyOf(definition), definition.rule.cssText);
      this.#entry.set(keyOf(definition), definition.rule.cssText);
    }
  }

  /**
   * Renames, in `sheets` (one sub-composition instance's, not yet scoped), the definitions that clash with a
   * different registered one, and rewrites their uses in them; registers the rest. `declaredIds` are the instance's
   * variable ids. Returns the renames and the CSS to add (the bridges of renamed declared ids); custom property
   * names are left to {@link renameCssText} on the scoped text, and `style` attributes to {@link renameInlineStyles}.
   */
  isolate(
    sheets: readonly CSSStyleSheet[],
    instance: string,
    scopeSelector: string,
    declaredIds: ReadonlySet<string>,
  ): { renames: CssRenames; bridge: string } {
    const renames: CssRenames = { keyframes: new Map(), property: new Map(), font: new Map() };
    for (const definition of sheets.flatMap((sheet) => [...definitions(sheet.cssRules)])) {
      const key = keyOf(definition);
      const known = this.#defined.get(key);
      if (known === undefined) this.#defined.set(key, definition.rule.cssText);
      // A registered custom property retypes every use of its name in the document, the parent's own plain
      // `--accent` too: an instance's is its own unless the entry registers the very same one.
      const shared =
        definition.kind === 'property'
          ? this.#entry.get(key) === definition.rule.cssText
          : known === undefined || known === definition.rule.cssText;
      if (shared) continue;
      const { kind, name, rule } = definition;
      if (kind === 'keyframes') {
        const renamed = `fx-${instance}-${name}`;
        (rule as CSSKeyframesRule).name = renamed;
        renames.keyframes.set(name, renamed);
      } else if (kind === 'font') {
        const renamed = `fx-${instance}-${name}`;
        renameFontFace(rule as CSSFontFaceRule, renamed);
        renames.font.set(name.toLowerCase(), renamed);
      } else {
        renames.property.set(name, `--fx-${instance}-${name.slice(2)}`);
      }
    }
    for (const sheet of sheets) for (const style of styleDeclarations(sheet.cssRules)) renameUses(style, renames);
    const bridge = [...renames.property]
      .filter(([name]) => declaredIds.has(name.slice(2)))
      .map(([name, renamed]) => `${scopeSelector} { ${renamed}: var(${name}) !important; }`)
      .join('\n');
    return { renames, bridge };
  }
}

const keyOf = ({ kind, name }: Definition) => `${kind} ${kind === 'font' ? name.toLowerCase() : name}`;

/** Every @keyframes, @property and @font-face of `rules`, nested ones (in @media, @supports, @layer, …) too. */
function* definitions(rules: CSSRuleList): Generator<Definition> {
  for (const rule of rules) {
    if (rule instanceof CSSKeyframesRule) yield { kind: 'keyframes', name: rule.name, rule };
    else if (rule instanceof CSSPropertyRule) yield { kind: 'property', name: rule.name, rule };
    else if (rule instanceof CSSFontFaceRule) {
      const family = unquote(rule.style.getPropertyValue('font-family'));
      if (family) yield { kind: 'font', name: family, rule };
    } else if ('cssRules' in rule && !(rule instanceof CSSKeyframesRule))
      yield* definitions((rule as CSSGroupingRule).cssRules);
  }
}

/**
 * Gives a @font-face another family by replacing the rule: Firefox's @font-face declarations are read-only
 * (`setProperty` throws), so the rule is rebuilt from its descriptors at the same place.
 */
function renameFontFace(rule: CSSFontFaceRule, family: string): void {
  const descriptors = [...rule.style]
    .filter((name) => name !== 'font-family')
    .map((name) => `${name}: ${rule.style.getPropertyValue(name)};`);
  const parent = (rule.parentRule as CSSGroupingRule | null) ?? rule.parentStyleSheet!;
  const index = [...parent.cssRules].indexOf(rule);
  parent.deleteRule(index);
  parent.insertRule(`@font-face { font-family: ${JSON.stringify(family)}; ${descriptors.join(' ')} }`, index);
}

/** The declarations of every style rule in `rules`, nested ones too. */
function* styleDeclarations(rules: CSSRuleList): Generator<CSSStyleDeclaration> {
  for (const rule of rules) {
    if (rule instanceof CSSStyleRule) yield rule.style;
    if ('cssRules' in rule && !(rule instanceof CSSKeyframesRule))
      yield* styleDeclarations((rule as CSSGroupingRule).cssRules);
  }
}

const unquote = (text: string) => text.trim().replace(/^(["'])(.*)\1$/s, '$2');

/** Rewrites animation names and font families of one declaration block (a rule's, or an element's `style`). */
function renameUses(style: CSSStyleDeclaration, renames: CssRenames): void {
  if (renames.keyframes.size > 0) {
    rewriteList(style, 'animation-name', (name) => {
      const renamed = renames.keyframes.get(unquote(name));
      return renamed === undefined ? undefined : CSS.escape(renamed);
    });
  }
  if (renames.font.size > 0) {
    rewriteList(style, 'font-family', (family) => {
      const renamed = renames.font.get(unquote(family).toLowerCase());
      return renamed === undefined ? undefined : JSON.stringify(renamed);
    });
  }
}

/** Rewrites the comma-separated items of a longhand, keeping its priority; untouched when nothing changes. */
function rewriteList(style: CSSStyleDeclaration, property: string, rename: (item: string) => string | undefined): void {
  const value = style.getPropertyValue(property);
  if (!value) return;
  let changed = false;
  const items = splitList(value).map((item) => {
    const renamed = rename(item);
    if (renamed === undefined) return item.trim();
    changed = true;
    return renamed;
  });
  if (changed) style.setProperty(property, items.join(', '), style.getPropertyPriority(property));
}

/** Splits a serialized list at top-level commas (not inside quotes). */
function splitList(value: string): string[] {
  const items: string[] = [];
  let quote = '';
  let start = 0;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (quote) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === ',') {
      items.push(value.slice(start, index));
      start = index + 1;
    }
  }
  items.push(value.slice(start));
  return items;
}

/** Renames custom properties in serialized CSS: declarations, `var()`s and the `@property` rules themselves. */
export function renameCssText(css: string, renames: CssRenames): string {
  let result = css;
  for (const [name, renamed] of renames.property) {
    const pattern = new RegExp(
      `(?<![\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-]|[^\\x00-\\x7f]|\\\\)`,
      'g',
    );
    result = result.replace(pattern, renamed);
  }
  return result;
}

/** Applies the renames to the `style` attributes of an instance's elements. */
export function renameInlineStyles(content: Element, renames: CssRenames): void {
  if (renames.keyframes.size + renames.font.size + renames.property.size === 0) return;
  for (const element of [content, ...content.querySelectorAll('[style]')]) {
    const style = (element as HTMLElement).style;
    if (!style || !element.hasAttribute('style')) continue;
    renameUses(style, renames);
    if (renames.property.size > 0) {
      const text = element.getAttribute('style')!;
      const renamed = renameCssText(text, renames);
      if (renamed !== text) element.setAttribute('style', renamed);
    }
  }
}
