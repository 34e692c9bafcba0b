// Where keyboard focus goes after an action: the control it started from when that is
// still there; else the same control of the item that took its item's place in the list
// (the next one), or of the last; else the list itself. Items are elements with
// `data-row` (and `data-key`, what they show) directly in a list with an `id`; controls
// are told apart by `data-action`.

export interface FocusPlace {
  element: HTMLElement;
  list: string | null;
  key: string | null;
  index: number;
  action: string | null;
  /** Focus goes to `action` even when the control it started from is still there. */
  moved: boolean;
}

/** Where focus is now, in terms that survive the view being drawn again. */
export function focusPlace(active: Element | null, then?: string): FocusPlace | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const row = active.closest<HTMLElement>("[data-row]");
  const list = row?.parentElement;
  const rows = list ? [...list.children].filter((c) => c.hasAttribute("data-row")) : [];
  return {
    element: active,
    list: list?.id || null,
    key: row?.dataset.key ?? null,
    index: row ? rows.indexOf(row) : -1,
    action: then ?? active.closest<HTMLElement>("[data-action]")?.dataset.action ?? null,
    moved: then !== undefined,
  };
}

/** Puts focus back at `place` (see the top of this file); `fallback` when nothing fits. */
export function restoreFocus(place: FocusPlace | null, fallback: HTMLElement | null): void {
  if (!place) return;
  if (!place.moved && document.activeElement !== document.body && document.activeElement !== null && document.activeElement !== place.element) {
    // Something else took focus on purpose (a dialog, an edit box): leave it there.
    if (document.activeElement.isConnected) return;
  }
  if (!place.moved && usable(place.element)) {
    place.element.focus();
    return;
  }
  const list = place.list ? document.getElementById(place.list) : null;
  if (!list) {
    if (usable(place.element)) place.element.focus();
    else fallback?.focus();
    return;
  }
  const rows = [...list.children].filter((c): c is HTMLElement => c instanceof HTMLElement && c.hasAttribute("data-row"));
  const row =
    rows.find((r) => place.key !== null && r.dataset.key === place.key) ??
    rows[Math.min(Math.max(place.index, 0), rows.length - 1)];
  if (!row) {
    if (!list.hasAttribute("tabindex")) list.setAttribute("tabindex", "-1");
    list.focus();
    return;
  }
  const controls = [...row.querySelectorAll<HTMLElement>("button, [href], input, select, textarea, summary")].filter(usable);
  const target =
    (place.action ? controls.find((c) => c.dataset.action === place.action) : undefined) ??
    controls.find((c) => c.classList.contains("primary")) ??
    controls[0];
  if (target) target.focus();
  else {
    if (!row.hasAttribute("tabindex")) row.setAttribute("tabindex", "-1");
    row.focus();
  }
}

function usable(element: HTMLElement): boolean {
  return !(element as HTMLButtonElement).disabled && !element.closest("[hidden]") && element.isConnected;
}

/** Runs `draw` (which replaces what a list shows) and puts back the focus it took: a
 * refresh, after a change here or in another process, never drops the keyboard focus. */
export function redraw(draw: () => void): void {
  const place = focusPlace(document.activeElement);
  draw();
  if (place && (document.activeElement === document.body || document.activeElement === null)) restoreFocus(place, null);
}
