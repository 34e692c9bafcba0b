// Light, dark or the system's choice, remembered in the window's local storage.
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

export function applyTheme(root: HTMLElement, storage: Pick<Storage, "setItem">, choice: ThemeChoice): void {
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
  storage.setItem(KEY, choice);
}

export const THEME_WORDS: Record<ThemeChoice, string> = {
  system: "Theme: as the system",
  light: "Theme: light",
  dark: "Theme: dark",
};
