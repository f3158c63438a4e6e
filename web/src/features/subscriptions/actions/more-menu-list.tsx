import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react';
import type { MoreMenuItem } from './more-menu';

interface MoreMenuListProps {
  id: string;
  context: string;
  items: MoreMenuItem[];
  /** The item focused as the menu opens: 0 the first, -1 the last. */
  first: number;
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** Closes the menu; `focusButton`: the focus goes back to the More button. */
  onClose: (focusButton: boolean) => void;
}

const menuItems = (menu: HTMLElement | null) =>
  Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

/**
 * The open More menu (loaded with the first one opened): focus on its first (or last) item, the arrows,
 * Home and End between items, Escape back to the button, Tab or a click outside closes it.
 */
export default function MoreMenuList({ id, context, items, first, buttonRef, onClose }: MoreMenuListProps) {
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const all = menuItems(menuRef.current);
    all[first < 0 ? all.length - 1 : first]?.focus();
    function outside(event: PointerEvent) {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) onClose(false);
    }
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [first, buttonRef, onClose]);

  function onKey(event: KeyboardEvent<HTMLDivElement>) {
    const all = menuItems(menuRef.current);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      all[moves[event.key] ?? 0]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      // A dialog around the list must not close as well.
      event.stopPropagation();
      onClose(true);
    } else if (event.key === 'Tab') {
      onClose(false);
    }
  }

  return (
    <div
      ref={menuRef}
      id={id}
      role="menu"
      aria-label={`More for ${context}`}
      className="more-menu-list"
      onKeyDown={onKey}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`more-menu-item${item.danger ? ' text-danger' : ''}`}
          onClick={() => {
            onClose(true);
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
