// The colour theme: the system's, or one the user picked. A choice of this
// browser or window only, kept in localStorage; the CSS does the rest
// (`:root[data-theme]`, or `prefers-color-scheme` when the system decides).

export type Theme = "system" | "light" | "dark";
const KEY = "braid.theme";

export function savedTheme(): Theme {
  const t = typeof localStorage === "undefined" ? null : localStorage.getItem(KEY);
  return t === "light" || t === "dark" ? t : "system";
}

export function applyTheme(theme: Theme) {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Private windows may refuse storage: the theme holds until a reload.
  }
}
