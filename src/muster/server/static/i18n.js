// The page's words in the reader's language. The server sets <html lang> (from ?lang=, the muster_lang
// cookie or Accept-Language) and serves the catalog at /api/i18n/<lang>, built from the same .po files
// as the server's own messages. English texts are the message ids, so a missing entry shows English.

export const lang = document.documentElement.lang || "en";
let messages = {};
let categories = ["one", "other"];
const rules = new Intl.PluralRules(lang);

/** Load the catalog once (English: only its keyed messages, such as "side:sparta"; the other ids are the texts). */
export async function loadMessages() {
  try {
    const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
    if (!response.ok) return;
    const data = await response.json();
    messages = data.messages || {};
    categories = data.plural_categories || categories;
  } catch { /* offline: the page stays in English */ }
}

function fill(text, args) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in args ? String(args[key]) : whole));
}

/** The translation of ``msgid`` with {placeholders} filled from ``args``. */
export function t(msgid, args = {}) {
  const found = messages[msgid];
  return fill(typeof found === "string" ? found : Array.isArray(found) ? found[0] : msgid, args);
}

/** The form that fits ``n`` (Polish has three), with {n} and the other placeholders filled. */
export function tn(singular, plural, n, args = {}) {
  const forms = messages[singular];
  let text;
  if (Array.isArray(forms)) {
    const k = categories.indexOf(rules.select(n));
    text = forms[k >= 0 ? k : forms.length - 1];
  } else text = n === 1 ? singular : plural;
  return fill(text, { ...args, n: n.toLocaleString(lang) });
}

/** Translate the static page: data-i18n (text), data-i18n-aria-label, data-i18n-title and data-i18n-placeholder. */
export function translatePage(root = document) {
  if (lang === "en") return;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-aria-label]")) node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.setAttribute("placeholder", t(node.dataset.i18nPlaceholder));
}

/** Links to the same page in each language (the server remembers the choice in a cookie). */
export function languageSwitcher() {
  const nav = document.createElement("nav");
  nav.className = "lang-switch";
  nav.setAttribute("aria-label", t("Language"));
  for (const [code, name] of [["en", "English"], ["pl", "Polski"]]) {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", code);
    const a = document.createElement("a");
    a.href = url.pathname + url.search;
    a.lang = code;
    a.hreflang = code;
    a.textContent = name;
    if (code === lang) a.setAttribute("aria-current", "true");
    nav.append(a);
  }
  try { localStorage.setItem("muster.lang", lang); } catch { /* private mode */ }
  return nav;
}

/** Ready the page: catalog loaded, static words translated, the switcher placed in ``where``. */
export async function setupLanguage(where) {
  await loadMessages();
  translatePage();
  if (where) where.append(languageSwitcher());
}
