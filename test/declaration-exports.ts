// Reads the names a built declaration file exports, following its re-exports, for public-surface.node.test.ts.
// TypeScript 7 has no JS API, so this reads tsc's own declaration output, whose top-level statements start at column
// 0 and end with `;` or a block: the forms tsc emits, not every form TypeScript accepts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type ExportKind = 'value' | 'type';

const VALUE_DECLARATION = /^export (?:declare )?(?:abstract )?(?:function|const|let|var|class|enum|namespace) (\w+)/gm;
const TYPE_DECLARATION = /^export (?:declare )?(?:interface|type) (\w+)/gm;
const LOCAL_DECLARATION =
  /^(?:export )?(?:declare )?(?:abstract )?(function|const|let|var|class|enum|namespace|interface|type) (\w+)/gm;
const STAR = /^export \* from '([^']+)';/gm;
const NAMED = /^export (type )?\{([^}]*)\}(?: from '([^']+)')?;/gm;
const IMPORT = /^import (type )?\{([^}]*)\} from '([^']+)';/gm;

/** Block comments out (JSDoc may show code); tsc puts no line comment at column 0 of a declaration file. */
const source = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** `./x.js` next to `from` → its declaration file; a package's name is refused (an entry re-exporting a dependency). */
function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) throw new Error(`${from} re-exports the package "${specifier}"`);
  return join(dirname(from), specifier.replace(/\.js$/, '.d.ts'));
}

/** `a`, `a as b`, `type a as b` → [local, exported, type-only]. */
function specifiers(list: string): [string, string, boolean][] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [, typeOnly, local, exported] = /^(type )?(\w+)(?: as (\w+))?$/.exec(part) ?? [];
      if (!local) throw new Error(`unreadable export specifier "${part}"`);
      return [local, exported ?? local, typeOnly !== undefined];
    });
}

/** Records `name`; a value wins over a type of the same name (a code table and its union type are one export). */
function add(names: Map<string, ExportKind>, name: string, kind: ExportKind): void {
  if (names.get(name) !== 'value') names.set(name, kind);
}

/** The names `file` exports, each a value (also usable as a type: classes, enums, consts) or a type only. */
export function declarationExports(
  file: string,
  seen = new Map<string, Map<string, ExportKind>>(),
): Map<string, ExportKind> {
  const known = seen.get(file);
  if (known) return known;
  const names = new Map<string, ExportKind>();
  seen.set(file, names);
  const text = source(file);
  for (const [, name] of text.matchAll(VALUE_DECLARATION)) add(names, name!, 'value');
  for (const [, name] of text.matchAll(TYPE_DECLARATION)) add(names, name!, 'type');
  for (const [, specifier] of text.matchAll(STAR)) {
    for (const [name, kind] of declarationExports(resolve(file, specifier!), seen))
      if (name !== 'default') add(names, name, kind);
  }
  for (const [, typeOnly, list, specifier] of text.matchAll(NAMED)) {
    for (const [local, exported, typeSpecifier] of specifiers(list!)) {
      const kind = specifier ? kindIn(resolve(file, specifier), local, seen) : localKind(file, text, local, seen);
      add(names, exported, typeOnly || typeSpecifier ? 'type' : kind);
    }
  }
  return names;
}

function kindIn(module: string, name: string, seen: Map<string, Map<string, ExportKind>>): ExportKind {
  const kind = declarationExports(module, seen).get(name);
  if (!kind) throw new Error(`"${name}" is not declared by ${module} (stripped as @internal, or renamed?)`);
  return kind;
}

/** An `export { name }` of something imported into `file` or declared in it. */
function localKind(file: string, text: string, name: string, seen: Map<string, Map<string, ExportKind>>): ExportKind {
  for (const [, typeOnly, list, specifier] of text.matchAll(IMPORT)) {
    const found = specifiers(list!).find(([, local]) => local === name);
    if (found) return typeOnly || found[2] ? 'type' : kindIn(resolve(file, specifier!), found[0], seen);
  }
  const kinds = [...text.matchAll(LOCAL_DECLARATION)]
    .filter(([, , declared]) => declared === name)
    .map(([, keyword]) => (keyword === 'interface' || keyword === 'type' ? 'type' : 'value'));
  if (kinds.length > 0) return kinds.includes('value') ? 'value' : 'type';
  throw new Error(`${file} exports "${name}", which it neither imports nor declares`);
}

/** `file` and every declaration file it reaches through relative imports and re-exports (side-effect ones too). */
export function declarationGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of source(file).matchAll(/^(?:import|export)\b[^;]*?'(\.[^']+)';/gm))
    declarationGraph(resolve(file, specifier!), seen);
  return seen;
}
