import Button from 'react-bootstrap/Button';
import type { Subscription, SubscriptionCategory } from '#contract/api.js';
import { MoreMenu, type MoreMenuItem } from './more-menu';

interface RowActionsProps {
  item: Subscription;
  /** The list the row is on: it decides which buttons show. */
  category: SubscriptionCategory;
  /** An action of the row is running: its buttons wait. */
  busy: boolean;
  onKeep: () => void;
  onBlock: () => void;
  onUnsubscribe: () => void;
  /** Opens the Organise dialog (a rule for the sender's mail); none on the Unsubscribed list. */
  onOrganise?: () => void;
  /** Asks to block the sender (saying how many messages move), from the More menu. */
  onAskBlock?: () => void;
}

/**
 * A row's buttons (docs/product.md §2/§4): Keep on every list but kept, Unsubscribe on every list but
 * unsubscribed, Block for an unsubscribed sender that still sends; the rest in the row's More menu:
 * Organise… (a rule) and Block… (asked first) where given. Each button's name starts with its visible
 * label (WCAG 2.5.3), the sender follows unseen.
 */
export function RowActions({
  item,
  category,
  busy,
  onKeep,
  onBlock,
  onUnsubscribe,
  onOrganise,
  onAskBlock,
}: RowActionsProps) {
  const blockShown = category === 'unsubscribed' && item.stillSending;
  const menu: MoreMenuItem[] = [];
  if (onOrganise) menu.push({ label: 'Organise…', onSelect: onOrganise });
  if (onAskBlock && !blockShown && item.unsubscribeMethod !== 'block')
    menu.push({ label: 'Block…', onSelect: onAskBlock, danger: true });
  return (
    <div className="row-actions">
      {category !== 'kept' && (
        <Button size="sm" variant="outline-success" disabled={busy} onClick={onKeep}>
          Keep Subscription<span className="visually-hidden"> {item.address}</span>
        </Button>
      )}
      {blockShown && (
        <Button size="sm" variant="outline-danger" disabled={busy} onClick={onBlock}>
          Block<span className="visually-hidden"> {item.address}</span>
        </Button>
      )}
      {category !== 'unsubscribed' && (
        <Button size="sm" variant="outline-danger" disabled={busy} onClick={onUnsubscribe}>
          Unsubscribe<span className="visually-hidden"> {item.address}</span>
        </Button>
      )}
      {menu.length > 0 && <MoreMenu context={item.address} items={menu} disabled={busy} />}
    </div>
  );
}
