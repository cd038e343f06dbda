// https://nuxt.com/docs/api/configuration/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  devtools: { enabled: true },
  // fx's elements are custom elements, not Vue components (in the server render too).
  vue: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('fx-') } },
  // An empty icon: Chromium asks for /favicon.ico otherwise, and the proxy counts its 404.
  app: { head: { title: 'fx in Nuxt', link: [{ rel: 'icon', href: 'data:,' }] } },
});
