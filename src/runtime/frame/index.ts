// The in-frame runtime (dist/fx-runtime.js). Its behaviour comes with the player issue.
export {};
