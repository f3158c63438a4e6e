import { type CSSProperties, forwardRef, lazy, type ReactNode, Suspense, useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import type { Subscription } from '#contract/api.js';
import { SenderLogo } from '../../../components/sender-logo';
import { costLabel, messageCountLabel, senderDomain, senderName } from './list-model';

interface SubscriptionRowProps {
  item: Subscription;
  logoBaseUrl: string | null;
  /** Names the mailbox under the address (the user has several). */
  showAccount: boolean;
  /** The buttons of the ACTIONS column. */
  actions?: ReactNode;
  /** Keep and Unsubscribe as the message preview's header offers them (none where the list has none). */
  previewActions?: { onKeep?: () => void; onUnsubscribe?: () => void };
  /** Set while an action on this row runs; the row shows its loading spinner. */
  busy?: boolean;
  /** What a slow action is doing, in words (shown while busy). */
  slowText?: string | null;
  /** The row's checkbox (bulk actions); none without onSelect. `shift`: a range from the last one. */
  selected?: boolean;
  onSelect?: (shift: boolean) => void;
  /** Its place in the list (0 first); the header row is aria-rowindex 1, this row index + 2. */
  index: number;
  /** The virtual list's placement. */
  style?: CSSProperties;
}

// The messages behind the caret (and their preview) come with the first expand: the list's first load
// has a budget.
const SubscriptionMessages = lazy(() => import('../preview/subscription-messages'));
// A rule's line comes with the first row that has one (the rules' words are not in the first load).
const RuleLine = lazy(() => import('../../rules').then((m) => ({ default: m.RuleLine })));

// An unsubscribed sender's receipt comes with the Unsubscribed list (use-list-rows.ts loads it as the list
// opens, and the list renders again once it is there): not in the first load, and without a Suspense
// boundary, whose reveal React holds back for a moment, so that the rows show with their receipts.
let RowReceipt: typeof import('./row-receipt').default | undefined;
export const loadReceipt = () =>
  import('./row-receipt').then((m) => {
    RowReceipt = m.default;
  });

/**
 * One sender (a row of the list's ARIA table): its checkbox, logo, name (and the list it came through),
 * address, message count and what it costs, the actions, and its messages behind the expand caret (a cell
 * of their own under the row). At desktop widths the name has the first line, the address, count and cost
 * the second, the actions beside them; on a phone the actions go under the sender (styles.css;
 * docs/decisions/104-screens-that-fit.md).
 */
export const SubscriptionRow = forwardRef<HTMLTableRowElement, SubscriptionRowProps>(function SubscriptionRow(
  {
    item,
    logoBaseUrl,
    showAccount,
    actions,
    previewActions,
    busy = false,
    slowText = null,
    selected,
    onSelect,
    index,
    style,
  },
  ref,
) {
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  const name = senderName(item);
  const cost = costLabel(item);

  function toggle() {
    setExpanded((open) => !open);
  }

  return (
    <tr
      ref={ref}
      aria-rowindex={index + 2}
      aria-busy={busy}
      data-index={index}
      // Reached by the arrow keys and a click on the row; Space then toggles its checkbox (the list's
      // keyboard handling). Not a Tab stop: Tab goes through the row's controls.
      tabIndex={-1}
      className={`subscription-row${selected ? ' selected' : ''}`}
      style={style}
    >
      {onSelect && (
        <td className="subscription-select">
          <input
            type="checkbox"
            className="form-check-input"
            aria-label={`Select ${name}`}
            checked={selected ?? false}
            onChange={() => {}}
            onClick={(event) => onSelect(event.shiftKey)}
          />
        </td>
      )}
      <td className="subscription-sender">
        <div className="subscription-main">
          <SenderLogo domain={senderDomain(item.address)} baseUrl={logoBaseUrl} />
          <SenderIdent item={item} name={name} />
          <div className="subscription-address min-w-0">
            <div className="text-muted small text-break">{item.address}</div>
            {showAccount && (
              <div className="text-muted small text-break subscription-account">{item.account}</div>
            )}
          </div>
          <div className="small subscription-count">{messageCountLabel(item.messageCount)}</div>
          <div className="small text-muted subscription-cost">{cost}</div>
          <ReceiptLine item={item} />
          <div className="subscription-state">
            {busy && (
              <Spinner animation="border" size="sm" role="status" className="flex-shrink-0">
                <span className="visually-hidden">Loading…</span>
              </Spinner>
            )}
            <button
              type="button"
              className="btn btn-link subscription-caret flex-shrink-0"
              aria-label={`Show messages from ${item.address}`}
              aria-expanded={expanded}
              aria-controls={listId}
              onClick={toggle}
            >
              <span className="subscription-caret-icon" aria-hidden="true" />
            </button>
          </div>
        </div>
        {busy && slowText && <div className="small text-primary subscription-slow">{slowText}</div>}
      </td>
      <td className="subscription-actions">{actions}</td>
      <ExpandedCell id={listId} expanded={expanded} item={item} name={name} previewActions={previewActions} />
    </tr>
  );
});

/**
 * The sender's messages, under the whole row after its actions: opening it moves neither the checkbox nor
 * the buttons. Fetched with the first expand.
 */
function ExpandedCell({
  id,
  expanded,
  item,
  name,
  previewActions,
}: {
  id: string;
  expanded: boolean;
  item: Subscription;
  name: string;
  previewActions: SubscriptionRowProps['previewActions'];
}) {
  return (
    <td id={id} className="subscription-expanded" hidden={!expanded}>
      {expanded && (
        <Suspense
          fallback={
            <Spinner animation="border" size="sm" role="status" className="mt-2">
              <span className="visually-hidden">Loading…</span>
            </Spinner>
          }
        >
          <SubscriptionMessages
            subscriptionId={item.id}
            sender={{ name, address: item.address }}
            {...previewActions}
          />
        </Suspense>
      )}
    </td>
  );
}

/** The sender's name (with "Held: new sender" while its mail is held) and the list it came through. */
function SenderIdent({ item, name }: { item: Subscription; name: string }) {
  return (
    <div className="subscription-ident min-w-0">
      <div className="fw-semibold text-break subscription-name">
        {item.screened && (
          // Found while "Hold new senders" was on: its mail waits in the Screener folder until Keep
          // (said in words, docs/decisions/105-words-that-cannot-be-misread.md).
          <Badge bg="info" text="dark" className="me-2 subscription-new">
            Held: new sender
            <span className="visually-hidden">, its mail waits out of your inbox until you Keep it</span>
          </Badge>
        )}
        {name}
      </div>
      {item.via && <div className="text-muted small text-break subscription-via">via {item.via}</div>}
    </div>
  );
}

/** The line under the sender, across the row on a desktop: how it was unsubscribed, its rule; none without. */
function ReceiptLine({ item }: { item: Subscription }) {
  const unsubscribed = item.category === 'unsubscribed';
  const rule = item.rule ?? null;
  if (!unsubscribed && !rule) return null;
  return (
    <div className="small subscription-receipt">
      {unsubscribed && RowReceipt && <RowReceipt item={item} />}
      {rule && (
        <Suspense fallback={null}>
          <RuleLine rule={rule} />
        </Suspense>
      )}
    </div>
  );
}
