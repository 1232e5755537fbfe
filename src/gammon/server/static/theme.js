// @ts-check
// Light or dark pages (issue #18): the choice made with the header's toggle, remembered in
// localStorage (`gammon.theme`), else the system's (`prefers-color-scheme`, followed as it
// changes). Sets `data-theme` on <html> before the page is drawn (a classic script in <head>)
// and wires the toggle once the header exists.
(() => {
  const KEY = "gammon.theme";
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  /** @returns {string | null} */
  const stored = () => {
    try {
      return localStorage.getItem(KEY);
    } catch {
      return null;
    }
  };
  const apply = () => {
    const choice = stored();
    const theme = choice === "dark" || choice === "light" ? choice : media.matches ? "dark" : "light";
    document.documentElement.dataset.theme = theme;
    const toggle = document.getElementById("theme-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
  };
  apply();
  media.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    const toggle = document.getElementById("theme-toggle");
    if (!toggle) return;
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const dark = document.documentElement.dataset.theme !== "dark";
      try {
        localStorage.setItem(KEY, dark ? "dark" : "light");
      } catch {
        // private mode: the choice lasts for this page only
      }
      if (stored() === null) document.documentElement.dataset.theme = dark ? "dark" : "light";
      else apply();
      toggle.setAttribute("aria-pressed", dark ? "true" : "false");
    });
    apply();
  });
})();
