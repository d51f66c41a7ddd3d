// tavli's pages in English, Greek or Turkish: the words of i18n.js in the chosen language (English
// where a key has none, the key itself where English has none too), and the page's static text
// (the data-i18n* attributes, see i18n.js). The choice comes from ?lang=, else the browser's
// memory (localStorage "tavli-lang", shared by the pages), else the browser's own language.
'use strict';

window.TAVLI_LANG = (() => {
  const WORDS = window.TAVLI_I18N || { languages: { en: 'English' }, en: {} };
  let lang = 'en';

  // The words of `key`, {name}s filled in from params.
  const t = (key, params = {}) => ((WORDS[lang] || {})[key] || WORDS.en[key] || key)
    .replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  // Whether English has `key` (words the server sends are looked up as prefix_word).
  const has = (key) => key in WORDS.en;
  // The words of `key` where the page's language has its own (a game's name), else undefined.
  const own = (key) => (WORDS[lang] || {})[key];
  // A word the server sends ("pass", "very bad"): translated under prefix_word where known, else as sent.
  const word = (prefix, w) => (has(`${prefix}_${w}`) ? t(`${prefix}_${w}`) : w);

  function apply() {
    document.documentElement.lang = lang;
    document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    // Markup from i18n.js only (the footer's <code> and <var>), never from the server.
    document.querySelectorAll('[data-i18n-html]').forEach((el) => { el.innerHTML = t(el.dataset.i18nHtml); });
    document.querySelectorAll('[data-i18n-title]').forEach((el) => { el.title = t(el.dataset.i18nTitle); });
    document.querySelectorAll('[data-i18n-label]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nLabel)); });
  }

  function set(code) {
    lang = WORDS[code] ? code : 'en';
    try { window.localStorage.setItem('tavli-lang', lang); } catch (_) { /* private mode */ }
    apply();
  }

  // Fills the language <select>, applies the chosen language, and calls onChange after each switch.
  function init(select, onChange) {
    for (const [code, name] of Object.entries(WORDS.languages)) select.appendChild(new Option(name, code));
    let chosen = new URLSearchParams(window.location.search).get('lang');
    if (!chosen) { try { chosen = window.localStorage.getItem('tavli-lang'); } catch (_) { chosen = null; } }
    if (!chosen) chosen = (navigator.language || 'en').slice(0, 2);
    set(chosen);
    select.value = lang;
    select.addEventListener('change', () => { set(select.value); onChange(); });
  }

  return { t, has, own, word, apply, set, init, words: WORDS };
})();
