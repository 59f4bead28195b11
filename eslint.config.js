// ESLint for the phone page (plain ES modules in the browser) and its Node unit tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Vendored libraries are kept as their authors wrote them.
  { ignores: ["scorekeeper/static/js/vendor/"] },
  js.configs.recommended,
  {
    files: ["scorekeeper/static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
