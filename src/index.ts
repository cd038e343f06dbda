/** fx-sdk: live, typed HTML video compositions. */
export * from './runtime/index.js';
