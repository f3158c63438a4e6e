import { type ReactNode, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { BrandRow, BulkAction, SubscriptionCategory } from '#contract/api.js';
import { SenderLogo } from '../../../components/sender-logo';
import { bulkActionsFor } from '../bulk/bulk-view';
import { costLabel, messageCountLabel } from '../list/list-model';
import { addressesPreview, BRAND_ACTION_LABELS, sendersLabel } from './brand-view';

interface BrandRowViewProps {
  row: BrandRow;
  index: number;
  open: boolean;
  onToggle: () => void;
  logoBaseUrl: string | null;
  selection: 'all' | 'some' | 'none';
  onSelect: (on: boolean) => void;
  busy: boolean;
  actions: ReactNode;
}

/** A brand's row: its checkbox (all its senders), logo, name and domain, senders, messages and cost, caret and buttons. */
export function BrandRowView({
  row,
  index,
  open,
  onToggle,
  logoBaseUrl,
  selection,
  onSelect,
  busy,
  actions,
}: BrandRowViewProps) {
  const sendersId = useId();
  const cost = costLabel(row);
  return (
    <tr
      aria-rowindex={index + 2}
      aria-busy={busy}
      className={`subscription-row brand-row${selection === 'all' ? ' selected' : ''}`}
      data-brand={row.brand}
    >
      <td className="subscription-select">
        <input
          type="checkbox"
          className="form-check-input"
          aria-label={`Select all senders of ${row.brand}`}
          checked={selection === 'all'}
          ref={(box) => {
            if (box) box.indeterminate = selection === 'some';
          }}
          onChange={() => onSelect(selection !== 'all')}
        />
      </td>
      <td className="subscription-sender">
        <div className="subscription-main">
          <SenderLogo domain={row.brand} baseUrl={logoBaseUrl} />
          <div className="subscription-ident min-w-0">
            {/* Its senders' own name (sender-written, shown as text), the domain under it. */}
            <div className="fw-semibold text-break subscription-name">{row.name || row.brand}</div>
            <div className="small brand-senders">
              {row.name && <span className="text-muted brand-domain">{row.brand} · </span>}
              {sendersLabel(row.senders.length)}
            </div>
          </div>
          <div className="subscription-address min-w-0">
            <div className="text-muted small brand-addresses" id={sendersId}>
              {addressesPreview(row.senders)}
            </div>
          </div>
          <div className="small subscription-count">{messageCountLabel(row.messageCount)}</div>
          <div className="small text-muted subscription-cost">{cost}</div>
          <div className="subscription-state">
            {busy && (
              <Spinner animation="border" size="sm" role="status" className="flex-shrink-0">
                <span className="visually-hidden">Working on {row.brand}…</span>
              </Spinner>
            )}
            <button
              type="button"
              className="btn btn-link subscription-caret flex-shrink-0"
              aria-label={`Show the senders of ${row.brand}`}
              aria-expanded={open}
              aria-describedby={sendersId}
              onClick={onToggle}
            >
              <span className="subscription-caret-icon" aria-hidden="true" />
            </button>
          </div>
        </div>
      </td>
      <td className="subscription-actions">{actions}</td>
    </tr>
  );
}

/** The buttons of a brand of several senders: each acts on all of them (`disabled` while a bulk action runs). */
export function BrandActions({
  row,
  category,
  disabled,
  onChoose,
}: {
  row: BrandRow;
  category: SubscriptionCategory;
  disabled: boolean;
  onChoose: (action: BulkAction, row: BrandRow) => void;
}) {
  return (
    <div className="row-actions">
      {bulkActionsFor(category).map((action) => (
        <Button
          key={action}
          size="sm"
          variant={action === 'keep' ? 'outline-success' : 'outline-danger'}
          disabled={disabled}
          onClick={() => onChoose(action, row)}
        >
          {BRAND_ACTION_LABELS[action]}
          <span className="visually-hidden"> from {row.brand}</span>
        </Button>
      ))}
    </div>
  );
}
