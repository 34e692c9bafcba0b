// Light, dark or the system's choice, remembered in the window's local storage. The
// stylesheet knows two palettes, chosen by `data-theme` on the root element.
export type ThemeChoice = "system" | "light" | "dark";
const KEY = "haema.theme";
const ORDER: ThemeChoice[] = ["system", "light", "dark"];

export function loadTheme(storage: Pick<Storage, "getItem">): ThemeChoice {
  const saved = storage.getItem(KEY);
  return ORDER.includes(saved as ThemeChoice) ? (saved as ThemeChoice) : "system";
}

export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length] ?? "system";
}

/** Sets `data-theme` to `light` or `dark` (the system's, for "system"; `systemDark` says
 * which that is) and remembers the choice. */
export function applyTheme(
  root: HTMLElement,
  storage: Pick<Storage, "setItem">,
  choice: ThemeChoice,
  systemDark: boolean,
): void {
  root.dataset.theme = choice === "system" ? (systemDark ? "dark" : "light") : choice;
  storage.setItem(KEY, choice);
}

export const THEME_WORDS: Record<ThemeChoice, string> = {
  system: "Theme: as the system",
  light: "Theme: light",
  dark: "Theme: dark",
};
