// A list loaded a page at a time (keyset paging): the view asks for more as people scroll.
export class PagedList<T> {
  items: T[] = [];
  done = false;
  private loading = false;

  constructor(
    private readonly fetchPage: (after: T | null, count: number) => Promise<T[]>,
    private readonly pageSize = 50,
  ) {}

  /** Loads from the top again (after a change), keeping at least as many items as shown. */
  async reload(): Promise<void> {
    const want = Math.max(this.pageSize, this.items.length);
    const page = await this.fetchPage(null, want);
    this.items = page;
    this.done = page.length < want;
  }

  /** Loads the next page; false when there was nothing more (or a load is running). */
  async more(): Promise<boolean> {
    if (this.done || this.loading) return false;
    this.loading = true;
    try {
      const page = await this.fetchPage(this.items[this.items.length - 1] ?? null, this.pageSize);
      this.items = this.items.concat(page);
      this.done = page.length < this.pageSize;
      return page.length > 0;
    } finally {
      this.loading = false;
    }
  }
}
