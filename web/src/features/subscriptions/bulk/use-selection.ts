import { useCallback, useMemo, useRef, useState } from 'react';
import type { Subscription } from '#contract/api.js';

/**
 * The rows picked for a bulk action: a checkbox toggles one, Shift+click a range from the last one clicked,
 * the header's checkbox every row shown. The selection keeps the items themselves, so that rows scrolled or
 * searched out of view stay selected.
 */
export function useSelection(visible: readonly Subscription[]) {
  const [selected, setSelected] = useState<ReadonlyMap<string, Subscription>>(new Map());
  const lastClicked = useRef<number | null>(null);

  const selectedItems = useMemo(() => [...selected.values()], [selected]);
  const allVisibleSelected = visible.length > 0 && visible.every((item) => selected.has(item.id));
  const someVisibleSelected = visible.some((item) => selected.has(item.id));

  const toggleRow = useCallback(
    (index: number, shift: boolean) => {
      const item = visible[index];
      if (!item) return;
      setSelected((current) => {
        const next = new Map(current);
        const on = !current.has(item.id);
        const from = shift && lastClicked.current !== null ? lastClicked.current : index;
        const [low, high] = from < index ? [from, index] : [index, from];
        for (let i = low; i <= high; i += 1) {
          const row = visible[i];
          if (!row) continue;
          if (on) next.set(row.id, row);
          else next.delete(row.id);
        }
        return next;
      });
      lastClicked.current = index;
    },
    [visible],
  );

  function toggleAllVisible() {
    setSelected((current) => {
      const next = new Map(current);
      if (allVisibleSelected) for (const item of visible) next.delete(item.id);
      else for (const item of visible) next.set(item.id, item);
      return next;
    });
  }

  /** Replaces the selection (empty: none). */
  const select = (items: readonly Subscription[]) =>
    setSelected(new Map(items.map((item) => [item.id, item])));

  return {
    selected,
    selectedItems,
    allVisibleSelected,
    someVisibleSelected,
    toggleRow,
    toggleAllVisible,
    select,
  };
}
