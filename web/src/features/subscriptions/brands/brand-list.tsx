// The subscription list grouped by brand ("Group by brand", docs/decisions/082-brands.md): one row per
// brand — its senders, messages, messages a month and read rate — expanding into the senders' own rows.
// Loaded with the first grouped view (a chunk of its own: the list's first load has a budget).
//
// A brand's Keep, Unsubscribe and Block act on every sender of the brand as the bulk actions do (POST
// /bulk-action: each sender through the single-sender path on the server, its progress and summary in the
// screen's BulkProgress); a brand of one sender has that sender's own buttons. Selecting a brand selects
// its senders, for the bulk bar.
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { BrandRow, BulkAction, Subscription } from '#contract/api.js';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { RowActions } from '../actions/row-actions';
import type { SubscriptionActions } from '../actions/use-subscription-actions';
import { subscriptionKeys } from '../api/keys';
import { BULK_CONFIRM_FROM, bulkQuestion } from '../bulk/bulk-view';
import type { BulkRun } from '../bulk/use-bulk-action';
import type { CategoryView } from '../list/categories';
import { emptyList } from '../list/empty-list';
import type { SortOrder } from '../list/list-model';
import { SubscriptionRow } from '../list/subscription-row';
import { useListReauth } from '../list/use-list-reauth';
import { useBrandList } from './api';
import { BrandActions, BrandRowView } from './brand-row';
import {
  BRAND_ACTION_LABELS,
  brandCaption,
  brandsOfPages,
  filterBrands,
  selectionOf,
  withSenders,
} from './brand-view';
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

/**
 * A brand's Keep, Unsubscribe or Block on all its senders: `choose` asks first when they are many
 * (BULK_CONFIRM_FROM); `dialog`, the question, is to be rendered by the list.
 */
function useBrandBulk({ onBulk, actions }: Pick<BrandListProps, 'onBulk' | 'actions'>) {
  const [asking, setAsking] = useState<{ action: BulkAction; row: BrandRow } | null>(null);

  async function act(action: BulkAction, row: BrandRow) {
    try {
      await onBulk(action, row.senders);
    } catch (error) {
      actions.reportFailure(error);
    }
  }

  function choose(action: BulkAction, row: BrandRow) {
    if (row.senders.length >= BULK_CONFIRM_FROM) setAsking({ action, row });
    else void act(action, row);
  }

  const dialog = (
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
  );
  return { choose, dialog };
}

/** Brands whose expanded state is kept while the list is open. */
function useExpanded() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  function toggleExpanded(brand: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(brand)) next.add(brand);
      return next;
    });
  }
  return [expanded, toggleExpanded] as const;
}

/** The senders a running bulk action has not reached yet: their brands show a spinner. */
function usePending(run: BulkRun | null) {
  return useMemo(() => {
    if (!run || run.finished) return new Set<string>();
    return new Set([...run.items.keys()].filter((id) => !run.results.has(id)));
  }, [run]);
}

/**
 * A sender's own buttons (a brand of one, or a sender of an expanded brand): the screen's row actions, after
 * which the brand's figures are fetched again as the server sums them.
 */
function useSenderActions({ view, actions, moveToTrash, onOrganise }: BrandListProps) {
  const { category } = view;
  const queryClient = useQueryClient();
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.brandLists(category) });
  return (item: Subscription) => (
    <RowActions
      item={item}
      category={category}
      busy={actions.busyRows.has(item.id)}
      onKeep={() => void actions.keep(item).then(refresh)}
      onBlock={() => void actions.block(item).then(refresh)}
      onUnsubscribe={() => void actions.unsubscribe(item, { moveToTrash }).then(refresh)}
      onOrganise={category === 'unsubscribed' ? undefined : () => onOrganise(item)}
    />
  );
}

export default function BrandList(props: BrandListProps) {
  const { view, order, query, q, selected, onSelect, actions, run } = props;
  const { category } = view;
  const list = useBrandList(category, order, q);
  const pages = list.data?.pages;
  const loaded = useMemo(() => brandsOfPages(pages), [pages]);
  const visible = useMemo(() => filterBrands(loaded, query), [loaded, query]);
  const total = typeof pages?.[0]?.total === 'number' ? Math.max(pages[0].total, 0) : loaded.length;
  const [expanded, toggleExpanded] = useExpanded();
  const { choose, dialog } = useBrandBulk(props);
  const failed = list.isError && !list.data;
  // A mailbox that needs signing in again: the screen's dialog with the server's reason.
  const reauth = useListReauth(list, actions.askReauth);

  const pending = usePending(run);
  const bulkRunning = run !== null && !run.finished;
  const senderActions = useSenderActions(props);

  const selectedItems = [...selected.values()];
  const allSenders = visible.flatMap((row) => row.senders);
  const pageSelection = selectionOf(selected, allSenders);

  const empty = emptyList({
    failed,
    reauth,
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
            <BrandActions row={row} category={category} disabled={bulkRunning} onChoose={choose} />
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
        <BrandHead
          selection={pageSelection}
          disabled={allSenders.length === 0}
          onToggle={() => onSelect(withSenders(selectedItems, allSenders, pageSelection !== 'all'))}
        />
        <tbody className="brand-body">{rows}</tbody>
      </table>
      <BrandListMore list={list} />
      {empty && <div className="mt-3">{empty}</div>}
      {dialog}
    </>
  );
}

/** The header row: the checkbox of every brand shown (all their senders), and the columns' names. */
function BrandHead({
  selection,
  disabled,
  onToggle,
}: {
  selection: 'all' | 'some' | 'none';
  disabled: boolean;
  onToggle: () => void;
}) {
  return (
    <thead className="subscription-head">
      <tr aria-rowindex={1} className="subscription-head-row">
        <th scope="col" className="subscription-select">
          <input
            type="checkbox"
            className="form-check-input"
            aria-label="Select all brands on this page"
            checked={selection === 'all'}
            ref={(box) => {
              if (box) box.indeterminate = selection === 'some';
            }}
            disabled={disabled}
            onChange={onToggle}
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
  );
}

/** Under the brands: the first page loading, a failed next page, or the button for the next one. */
function BrandListMore({ list }: { list: ReturnType<typeof useBrandList> }) {
  return (
    <>
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
    </>
  );
}
