// What the brand view shows and selects (brand-list.tsx), kept pure for the unit tests.
import type { BrandRow, BrandsResponse, BulkAction, Subscription } from '#contract/api.js';

/** The loaded pages' brands, each once (a later page repeats none, unless the list changed between). */
export function brandsOfPages(pages: readonly BrandsResponse[] | undefined): BrandRow[] {
  if (!pages) return [];
  const seen = new Set<string>();
  const rows: BrandRow[] = [];
  for (const page of pages) {
    for (const row of page.data ?? []) {
      if (seen.has(row.brand) || row.senders.length === 0) continue;
      seen.add(row.brand);
      rows.push(row);
    }
  }
  return rows;
}

/**
 * The brands whose name, or any of whose senders' name or address, contains the typed search, ignoring
 * case (as the server's `q`): the rows on screen filter at once, before the server's answer.
 */
export function filterBrands(rows: readonly BrandRow[], query: string): BrandRow[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter(
    (row) =>
      row.brand.toLowerCase().includes(needle) ||
      row.senders.some(
        (s) => s.address.toLowerCase().includes(needle) || s.senderName.toLowerCase().includes(needle),
      ),
  );
}

export type BrandSelection = 'all' | 'some' | 'none';

/** How much of a brand the selection holds. */
export function selectionOf(
  selected: ReadonlyMap<string, unknown>,
  senders: readonly Subscription[],
): BrandSelection {
  const n = senders.filter((s) => selected.has(s.id)).length;
  if (n === 0) return 'none';
  return n === senders.length ? 'all' : 'some';
}

/** The selection with every sender of `senders` added (`on`) or taken out, in the order picked. */
export function withSenders(
  selected: readonly Subscription[],
  senders: readonly Subscription[],
  on: boolean,
): Subscription[] {
  const ids = new Set(senders.map((s) => s.id));
  const kept = selected.filter((s) => !ids.has(s.id));
  return on ? [...kept, ...senders] : kept;
}

/** "1 sender", "3 senders". */
export function sendersLabel(count: number): string {
  return `${count} ${count === 1 ? 'sender' : 'senders'}`;
}

/** The caption of the grouped list: "6 brands". */
export function brandCaption(total: number): string {
  return `${total} ${total === 1 ? 'brand' : 'brands'}`;
}

/** A few of the brand's addresses, for its row: "news@…, deals@… and 3 more". */
export function addressesPreview(senders: readonly Subscription[], shown = 2): string {
  const first = senders.slice(0, shown).map((s) => s.address);
  const more = senders.length - first.length;
  return more > 0 ? `${first.join(', ')} and ${more} more` : first.join(', ');
}

/** A brand's buttons (as many senders as it has): what they say. */
export const BRAND_ACTION_LABELS: Record<BulkAction, string> = {
  keep: 'Keep all',
  unsubscribe: 'Unsubscribe all',
  block: 'Block all',
};
