// The subscription list grouped by brand ("Group by brand", docs/decisions/082-brands.md): one row per
// brand — its senders, messages, messages a month and read rate — expanding into the senders' own rows.
// Loaded with the first grouped view (a chunk of its own: the list's first load has a budget).
//
// A brand's Keep, Unsubscribe and Block act on every sender of the brand as the bulk actions do (POST
// /bulk-action: each sender through the single-sender path on the server, its progress and summary in the
// screen's BulkProgress); a brand of one sender has that sender's own buttons. Selecting a brand selects
// its senders, for the bulk bar.
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { BrandRow, BulkAction, Subscription } from '#contract/api.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorState } from '../../../components/ErrorState';
import { SenderLogo } from '../../../components/SenderLogo';
import { isStatus, messageOf, redirectUrlOf } from '../../../lib/api-client';
import { subscriptionKeys } from '../api/keys';
import { BULK_CONFIRM_FROM, bulkActionsFor, bulkQuestion } from '../bulk';
import type { CategoryView } from '../categories';
import { emptyList } from '../EmptyList';
import { RowActions } from '../RowActions';
import { SubscriptionRow } from '../SubscriptionRow';
import { costLabel, messageCountLabel, type SortOrder } from '../subscriptionList';
import type { BulkRun } from '../useBulkAction';
import type { SubscriptionActions } from '../useSubscriptionActions';
import { useBrandList } from './api';
import {
  addressesPreview,
  BRAND_ACTION_LABELS,
  brandCaption,
  brandsOfPages,
  filterBrands,
  selectionOf,
  sendersLabel,
  withSenders,
} from './brandView';
import './brands.css';

export interface BrandListProps {
  view: CategoryView;
  order: SortOrder;
  /** The search as typed (filters the rows on screen at once) and as sent to the server. */
  query: string;
  q: string;
  logoBaseUrl: string | null;
  showAccount: boolean;
  /** The list's selection (sender ids), and a way to replace it. */
  selected: ReadonlyMap<string, Subscription>;
  onSelect: (items: Subscription[]) => void;
  /** The screen's row actions (single sender), and the unsubscribe's trash switch. */
  actions: SubscriptionActions;
  moveToTrash: boolean;
  onOrganise: (item: Subscription) => void;
  /** The screen's bulk action, if one is shown; `onBulk` starts one on these senders (throws on failure). */
  run: BulkRun | null;
  onBulk: (action: BulkAction, items: Subscription[]) => Promise<void>;
  scanning: boolean;
  accounts: { failed: boolean; count: number | null; retry: () => void };
}

export default function BrandList(props: BrandListProps) {
  const { view, order, query, q, selected, onSelect, actions, run } = props;
  const { category } = view;
  const queryClient = useQueryClient();
  const list = useBrandList(category, order, q);
  const pages = list.data?.pages;
  const loaded = useMemo(() => brandsOfPages(pages), [pages]);
  const visible = useMemo(() => filterBrands(loaded, query), [loaded, query]);
  const total = typeof pages?.[0]?.total === 'number' ? Math.max(pages[0].total, 0) : loaded.length;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [asking, setAsking] = useState<{ action: BulkAction; row: BrandRow } | null>(null);
  const failed = list.isError && !list.data;

  // A mailbox that needs signing in again: the screen's dialog with the server's reason.
  const reauthUrl = list.isError && isStatus(list.error, 401) ? redirectUrlOf(list.error) : null;
  const reauthReason = reauthUrl ? messageOf(list.error, '') : '';
  const { askReauth } = actions;
  useEffect(() => {
    if (reauthUrl) askReauth(reauthUrl, reauthReason || undefined);
  }, [reauthUrl, reauthReason, askReauth]);

  // The senders a running bulk action has not reached yet: their brands show a spinner.
  const pending = useMemo(() => {
    if (!run || run.finished) return new Set<string>();
    return new Set([...run.items.keys()].filter((id) => !run.results.has(id)));
  }, [run]);
  const bulkRunning = run !== null && !run.finished;

  /** After a single sender's action, the brand's figures as the server sums them. */
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.brandLists(category) });
  const senderActions = (item: Subscription) => (
    <RowActions
      item={item}
      category={category}
      busy={actions.busyRows.has(item.id)}
      onKeep={() => void actions.keep(item).then(refresh)}
      onBlock={() => void actions.block(item).then(refresh)}
      onUnsubscribe={() => void actions.unsubscribe(item, { moveToTrash: props.moveToTrash }).then(refresh)}
      onOrganise={category === 'unsubscribed' ? undefined : () => props.onOrganise(item)}
    />
  );

  async function act(action: BulkAction, row: BrandRow) {
    try {
      await props.onBulk(action, row.senders);
    } catch (error) {
      actions.reportFailure(error);
    }
  }

  function choose(action: BulkAction, row: BrandRow) {
    if (row.senders.length >= BULK_CONFIRM_FROM) setAsking({ action, row });
    else void act(action, row);
  }

  function toggleExpanded(brand: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(brand)) next.add(brand);
      return next;
    });
  }

  const selectedItems = [...selected.values()];
  const allSenders = visible.flatMap((row) => row.senders);
  const pageSelection = selectionOf(selected, allSenders);

  const empty = emptyList({
    failed,
    reauth: reauthUrl ? { url: reauthUrl, reason: reauthReason } : null,
    onRetry: () => void list.refetch(),
    settledEmpty: !list.isPending && loaded.length === 0 && !props.scanning && !list.isFetching,
    searchHidesAll: loaded.length > 0 && visible.length === 0 && !list.isFetching,
    accounts: props.accounts,
    searching: q !== '',
  });

  // Rows in the order shown (a brand, then its senders when expanded): their place for aria-rowindex.
  const rows: ReactNode[] = [];
  for (const row of visible) {
    const open = expanded.has(row.brand);
    rows.push(
      <BrandRowView
        key={`brand:${row.brand}`}
        row={row}
        index={rows.length}
        open={open}
        onToggle={() => toggleExpanded(row.brand)}
        logoBaseUrl={props.logoBaseUrl}
        selection={selectionOf(selected, row.senders)}
        onSelect={(on) => onSelect(withSenders(selectedItems, row.senders, on))}
        busy={row.senders.some((s) => pending.has(s.id) || actions.busyRows.has(s.id))}
        actions={
          row.senders.length === 1 && row.senders[0] ? (
            senderActions(row.senders[0])
          ) : (
            <div className="row-actions">
              {bulkActionsFor(category).map((action) => (
                <Button
                  key={action}
                  size="sm"
                  variant={action === 'keep' ? 'outline-success' : 'outline-danger'}
                  disabled={bulkRunning}
                  onClick={() => choose(action, row)}
                >
                  {BRAND_ACTION_LABELS[action]}
                  <span className="visually-hidden"> from {row.brand}</span>
                </Button>
              ))}
            </div>
          )
        }
      />,
    );
    if (!open) continue;
    for (const item of row.senders) {
      rows.push(
        <SubscriptionRow
          key={item.id}
          index={rows.length}
          item={item}
          logoBaseUrl={props.logoBaseUrl}
          showAccount={props.showAccount}
          busy={actions.busyRows.has(item.id) || pending.has(item.id)}
          slowText={actions.busyRows.get(item.id) ?? null}
          selected={selected.has(item.id)}
          onSelect={() => onSelect(withSenders(selectedItems, [item], !selected.has(item.id)))}
          actions={row.senders.length > 1 ? senderActions(item) : null}
        />,
      );
    }
  }

  return (
    <>
      <p className="text-muted mb-3 count-caption">{failed ? '\u00a0' : brandCaption(total)}</p>
      <table
        hidden={failed}
        aria-label={`${view.heading} by brand`}
        aria-rowcount={list.hasNextPage ? -1 : rows.length + 1}
        className="subscription-table brand-table bg-white border mb-0"
        aria-busy={list.isFetching}
      >
        <thead className="subscription-head">
          <tr aria-rowindex={1} className="subscription-head-row">
            <th scope="col" className="subscription-select">
              <input
                type="checkbox"
                className="form-check-input"
                aria-label="Select all brands on this page"
                checked={pageSelection === 'all'}
                ref={(box) => {
                  if (box) box.indeterminate = pageSelection === 'some';
                }}
                disabled={allSenders.length === 0}
                onChange={() => onSelect(withSenders(selectedItems, allSenders, pageSelection !== 'all'))}
              />
            </th>
            <th scope="col" className="subscription-col">
              BRANDS
            </th>
            <th scope="col" className="actions-col">
              ACTIONS
            </th>
          </tr>
        </thead>
        <tbody className="brand-body">{rows}</tbody>
      </table>
      {list.isPending && (
        <Spinner animation="border" size="sm" variant="primary" role="status" className="mt-3">
          <span className="visually-hidden">Loading brands…</span>
        </Spinner>
      )}
      {list.isFetchNextPageError && (
        <div className="mt-3">
          <ErrorState message="Failed to fetch more brands..." onRetry={() => void list.fetchNextPage()} />
        </div>
      )}
      {list.hasNextPage && !list.isFetchNextPageError && (
        <Button
          variant="outline-secondary"
          size="sm"
          className="mt-3"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading more…' : 'Show more brands'}
        </Button>
      )}
      {empty && <div className="mt-3">{empty}</div>}
      <ConfirmDialog
        show={asking !== null}
        title={asking ? bulkQuestion(asking.action, asking.row.senders.length) : ''}
        confirmLabel={asking ? BRAND_ACTION_LABELS[asking.action] : ''}
        danger={asking?.action !== 'keep'}
        onConfirm={() => {
          const chosen = asking;
          setAsking(null);
          if (chosen) void act(chosen.action, chosen.row);
        }}
        onCancel={() => setAsking(null)}
      >
        <p className="mb-0">Every address of {asking?.row.brand} is acted on, one after the other.</p>
      </ConfirmDialog>
    </>
  );
}

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

/** A brand's row: its checkbox (all its senders), logo, name, senders, messages and cost, caret and buttons. */
function BrandRowView({
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
            <div className="fw-semibold text-break subscription-name">{row.brand}</div>
            <div className="small brand-senders">{sendersLabel(row.senders.length)}</div>
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
