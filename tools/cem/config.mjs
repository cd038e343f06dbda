// custom-elements.json is the element's public API: private members (`#name`, `private`) stay out of it.
const isPublic = (member) => !member.name.startsWith('#') && member.privacy !== 'private' && member.privacy !== 'protected';

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
  ],
};
