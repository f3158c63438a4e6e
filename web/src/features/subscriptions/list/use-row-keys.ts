import type { Virtualizer } from '@tanstack/react-virtual';
import type { KeyboardEvent, RefObject } from 'react';

/**
 * The list's keyboard: Space on a focused row toggles its checkbox (Shift: a range), the arrow keys move
 * between rows. A row near the screen is rendered already: focus moves at once (a Space right after lands
 * on it); one further away is scrolled to and focused once rendered.
 */
export function useRowKeys(
  bodyRef: RefObject<HTMLTableSectionElement | null>,
  virtualizer: Virtualizer<Window, Element>,
  count: number,
  toggleRow: (index: number, shift: boolean) => void,
) {
  return function onRowKey(event: KeyboardEvent<HTMLTableSectionElement>) {
    const row = (event.target as HTMLElement).closest<HTMLElement>('tr[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    if (event.key === ' ' && event.target === row) {
      event.preventDefault();
      toggleRow(index, event.shiftKey);
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && event.target === row) {
      event.preventDefault();
      const next = index + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0 || next >= count) return;
      const rowAt = () => bodyRef.current?.querySelector<HTMLElement>(`tr[data-index="${next}"]`);
      const near = rowAt();
      if (near) {
        near.focus();
        return;
      }
      virtualizer.scrollToIndex(next);
      requestAnimationFrame(() => rowAt()?.focus());
    }
  };
}
