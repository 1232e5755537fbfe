// @ts-check
// Light or dark pages (issue #18): the choice made with the header's toggle, remembered in
// localStorage (`gammon.theme`), else the system's (`prefers-color-scheme`, followed as it
// changes). Sets `data-theme` on <html> before the page is drawn (a classic script in <head>)
// and wires the toggle once the header exists; also opens and closes the header's menu on a
// narrow screen.
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
  // The header's menu button (a narrow screen: site.css shows the links only when it is
  // open); without scripts the links stay in the header, wrapped.
  const menu = () => {
    const header = document.querySelector("header.site");
    const button = document.getElementById("nav-toggle");
    if (!header || !button) return;
    button.hidden = false;
    header.classList.add("has-menu");
    /** @param {boolean} open */
    const set = (open) => {
      header.classList.toggle("open", open);
      button.setAttribute("aria-expanded", open ? "true" : "false");
    };
    button.addEventListener("click", () => set(!header.classList.contains("open")));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && header.classList.contains("open")) {
        set(false);
        button.focus();
      }
    });
    document.addEventListener("click", (e) => {
      if (e.target instanceof Node && !header.contains(e.target)) set(false);
    });
    // a choice made in it (a language the game page switches to in place, the theme) closes it
    const nav = document.getElementById("site-nav");
    if (nav) {
      nav.addEventListener("click", (e) => {
        if (e.target instanceof Element && e.target.closest("a, button")) set(false);
      });
    }
  };
  apply();
  media.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    menu();
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
