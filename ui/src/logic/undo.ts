// Undo after every action: each action that changes something hands back how to take it
// back; the newest can be undone from the notice (or Ctrl+Z).
export interface Undoable {
  /** What was done, e.g. "Approved". */
  done: string;
  /** Takes it back; resolves to what the undo did, e.g. "Approval undone". */
  undo: () => Promise<string>;
}

export class UndoStack {
  private items: Undoable[] = [];

  constructor(private readonly limit = 20) {}

  push(item: Undoable): void {
    this.items.push(item);
    if (this.items.length > this.limit) this.items.shift();
  }

  get latest(): Undoable | undefined {
    return this.items[this.items.length - 1];
  }

  get size(): number {
    return this.items.length;
  }

  /** Undoes the newest action; it is dropped even when undoing fails (it is reported). */
  async undo(): Promise<string | null> {
    const item = this.items.pop();
    return item ? item.undo() : null;
  }

  clear(): void {
    this.items = [];
  }
}
