import { type KeyboardEvent, lazy, Suspense, useCallback, useId, useRef, useState } from 'react';
import './more-menu.css';

// The open menu comes with the first one opened (the list's first load has a budget).
const MoreMenuList = lazy(() => import('./more-menu-list'));

export interface MoreMenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
}

interface MoreMenuProps {
  /** Said after "More" to assistive technology (the sender's address): each row's button has its own name. */
  context: string;
  items: MoreMenuItem[];
  disabled?: boolean;
}

/**
 * A row's "More" button and its menu (the WAI-ARIA menu button pattern): Enter, Space or ArrowDown open it
 * on its first item, ArrowUp on its last; in it the arrows, Home and End move, Escape closes it and gives
 * the focus back to the button, Tab, a click outside or a choice close it (more-menu-list.tsx). Small and
 * our own: a library's dropdown (and its positioning engine) would weigh on the list's first load.
 */
export function MoreMenu({ context, items, disabled = false }: MoreMenuProps) {
  const [open, setOpen] = useState<number | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const close = useCallback((focusButton: boolean) => {
    setOpen(null);
    if (focusButton) buttonRef.current?.focus();
  }, []);

  function onButtonKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 0 : -1);
    }
  }

  return (
    <div className="more-menu">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-sm btn-outline-secondary more-menu-button"
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        disabled={disabled}
        onClick={() => (open !== null ? close(false) : setOpen(0))}
        onKeyDown={onButtonKey}
      >
        More<span className="visually-hidden"> {context}</span>
        <span className="more-menu-caret" aria-hidden="true" />
      </button>
      {open !== null && (
        <Suspense fallback={null}>
          <MoreMenuList
            id={menuId}
            context={context}
            items={items}
            first={open}
            buttonRef={buttonRef}
            onClose={close}
          />
        </Suspense>
      )}
    </div>
  );
}
