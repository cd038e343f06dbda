// custom-elements.json is the element's public API, as the package ships it: private members (`#name`, `private`)
// stay out, and module paths name the file users import (dist/fx-sdk.js, which exports the class and defines the
// tag), not the src/ file the analyzer read, which the package does not ship.
const isPublic = (member) =>
  !member.name.startsWith('#') && member.privacy !== 'private' && member.privacy !== 'protected';
const SHIPPED_MODULE = 'dist/fx-sdk.js';

export default {
  plugins: [
    {
      name: 'fx-public-members-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            if (declaration.members) declaration.members = declaration.members.filter(isPublic);
          }
        }
      },
    },
    {
      name: 'fx-shipped-paths',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          module.path = SHIPPED_MODULE;
          for (const declaration of module.declarations ?? []) {
            for (const member of declaration.members ?? [])
              if (member.inheritedFrom?.module) member.inheritedFrom.module = SHIPPED_MODULE;
          }
          for (const entry of module.exports ?? [])
            if (entry.declaration.module) entry.declaration.module = SHIPPED_MODULE;
          // Importing the module defines the tag (src/elements/composition/define.ts), which the analyzer does not read.
          for (const declaration of module.declarations ?? []) {
            if (
              !declaration.tagName ||
              module.exports?.some(
                (entry) => entry.kind === 'custom-element-definition' && entry.name === declaration.tagName,
              )
            )
              continue;
            (module.exports ??= []).push({
              kind: 'custom-element-definition',
              name: declaration.tagName,
              declaration: { name: declaration.name, module: SHIPPED_MODULE },
            });
          }
        }
        // Every element ships in the one module: one entry, as users import it.
        const [first, ...others] = customElementsManifest.modules;
        for (const module of others) {
          first.declarations = [...(first.declarations ?? []), ...(module.declarations ?? [])];
          first.exports = [...(first.exports ?? []), ...(module.exports ?? [])];
        }
        customElementsManifest.modules = first ? [first] : [];
      },
    },
  ],
};
