// Translations: /static/i18n/<lang>.json, keys with {name} placeholders.

import { store } from "./store.js";

export const LANGUAGES = ["en", "fil", "bn", "ne"];
let strings = {};
let fallback = {};
let current = "en";

async function load(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`, { cache: "no-cache" });
  return response.json();
}

export function pickLanguage() {
  const saved = store.lang();
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const wanted of navigator.languages || []) {
    const base = wanted.toLowerCase().split("-")[0];
    if (base === "tl") return "fil";
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  strings = lang === "en" ? fallback : await load(lang);
  current = lang;
  document.documentElement.lang = lang;
  document.title = t("app_name");
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
}

export function language() {
  return current;
}

// The locale numbers and dates are written in: the page's language with Latin digits, the digits
// of the cards, the pads and every figure the page writes itself, so that a screen never mixes two
// kinds (docs/phone.md, "Digits").
export function numberLocale() {
  return `${current}-u-nu-latn`;
}

export function t(key, vars = {}) {
  let text = strings[key] ?? fallback[key] ?? key;
  for (const [name, value] of Object.entries(vars)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}
