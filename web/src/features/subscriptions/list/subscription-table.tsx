import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Subscription, SubscriptionCategory } from '#contract/api.js';
import { ErrorState } from '../../../components/error-state';
import { RowActions } from '../actions/row-actions';
import type { SubscriptionActions } from '../actions/use-subscription-actions';
import type { useSubscriptionList } from '../api/list-query';
import type { useSelection } from '../bulk/use-selection';
import { SubscriptionRow } from './subscription-row';
import './rows.css';
import { useRowKeys } from './use-row-keys';

/** Rows rendered beyond the screen, above and below. */
const OVERSCAN = 8;
/** The next page is asked for when this few loaded rows remain below the screen. */
const LOAD_AHEAD = 15;

interface SubscriptionTableProps {
  label: string;
  hidden: boolean;
  /** The first page has not come: skeleton rows stand in for it (never an empty list, never "0"). */
  loading: boolean;
  /** The rows shown (loaded and matching the typed search), and how many match in all. */
  visible: readonly Subscription[];
  matching: number;
  /** The list's pages: the next one is fetched as the rows near the end come on screen. */
  list: ReturnType<typeof useSubscriptionList>;
  selection: ReturnType<typeof useSelection>;
  logoBaseUrl: string | null;
  showAccount: boolean;
  /** The row buttons: the screen's actions, the unsubscribe's trash switch, "Organise…". */
  category: SubscriptionCategory;
  actions: SubscriptionActions;
  moveToTrash: boolean;
  onOrganise: (item: Subscription) => void;
  /** The More menu's Block: asks first (bulk/use-row-block.tsx). */
  onAskBlock: (item: Subscription) => void;
}

/**
 * The rows near the screen, placed by the window's virtualizer below the table's top (`bodyRef`); the next
 * page is asked for as the last loaded rows come near.
 */
function useVirtualRows(visible: readonly Subscription[], list: ReturnType<typeof useSubscriptionList>) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const top = (bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
    if (Math.abs(top - scrollMargin) > 1) setScrollMargin(top);
  });
  const virtualizer = useWindowVirtualizer({
    count: visible.length,
    estimateSize: () => 76,
    overscan: OVERSCAN,
    scrollMargin,
    getItemKey: (index) => visible[index]?.id ?? index,
  });
  const rows = virtualizer.getVirtualItems();
  const lastShown = rows.length > 0 ? (rows[rows.length - 1]?.index ?? 0) : -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError } = list;
  useEffect(() => {
    if (
      hasNextPage &&
      !isFetchingNextPage &&
      !isFetchNextPageError &&
      lastShown >= visible.length - LOAD_AHEAD
    ) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, lastShown, visible.length, fetchNextPage]);
  return { bodyRef, virtualizer, rows };
}

/** Rows' shapes while the first page comes (hidden from assistive technology: the header's spinner says it). */
function SkeletonRows() {
  return (
    <tbody className="subscription-skeletons placeholder-glow" aria-hidden="true">
      {[0, 1, 2, 3, 4, 5].map((n) => (
        <tr key={n} className="subscription-row subscription-skeleton">
          <td className="subscription-select" />
          <td className="subscription-sender">
            <div className="d-flex gap-3 align-items-center">
              <span className="placeholder rounded subscription-skeleton-logo" />
              <span className="flex-grow-1">
                <span className={`placeholder d-block mb-2 col-${n % 2 ? 5 : 7}`} />
                <span className="placeholder placeholder-sm d-block col-4" />
              </span>
            </div>
          </td>
          <td className="subscription-actions" />
        </tr>
      ))}
    </tbody>
  );
}

/** The header row: the checkbox of every row shown, and the columns' names. */
function SubscriptionHead({
  selection,
  disabled,
}: {
  selection: ReturnType<typeof useSelection>;
  disabled: boolean;
}) {
  const { allVisibleSelected, someVisibleSelected, toggleAllVisible } = selection;
  return (
    <thead className="subscription-head">
      <tr aria-rowindex={1} className="subscription-head-row">
        <th scope="col" className="subscription-select">
          <input
            type="checkbox"
            className="form-check-input"
            aria-label="Select all on this page"
            checked={allVisibleSelected}
            ref={(box) => {
              if (box) box.indeterminate = someVisibleSelected && !allVisibleSelected;
            }}
            disabled={disabled}
            onChange={toggleAllVisible}
          />
        </th>
        <th scope="col" className="subscription-col">
          EMAIL SUBSCRIPTIONS
        </th>
        <th scope="col" className="actions-col">
          ACTIONS
        </th>
      </tr>
    </thead>
  );
}

/**
 * The senders of the list, a table laid out as a grid (styles.css): only the rows near the screen exist,
 * placed by the virtualizer; the next page comes as the user scrolls towards the end.
 */
export function SubscriptionTable({
  label,
  hidden,
  loading,
  visible,
  matching,
  list,
  selection,
  logoBaseUrl,
  showAccount,
  category,
  actions,
  moveToTrash,
  onOrganise,
  onAskBlock,
}: SubscriptionTableProps) {
  const { busyRows, keep, unsubscribe, block } = actions;
  const { selected, toggleRow } = selection;
  const { bodyRef, virtualizer, rows } = useVirtualRows(visible, list);
  const { isFetchingNextPage, fetchNextPage, isFetchNextPageError } = list;
  const onRowKey = useRowKeys(bodyRef, virtualizer, visible.length, toggleRow);

  return (
    <>
      <table
        hidden={hidden}
        aria-label={label}
        aria-rowcount={matching + 1}
        className="subscription-table bg-white border mb-0"
      >
        <SubscriptionHead selection={selection} disabled={visible.length === 0} />
        {loading && <SkeletonRows />}
        <tbody
          ref={bodyRef}
          className="subscription-body"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onRowKey}
        >
          {rows.map((row) => {
            const item = visible[row.index];
            if (!item) return null;
            return (
              <SubscriptionRow
                key={row.key}
                ref={virtualizer.measureElement}
                index={row.index}
                style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
                item={item}
                logoBaseUrl={logoBaseUrl}
                showAccount={showAccount}
                busy={busyRows.has(item.id)}
                slowText={busyRows.get(item.id) ?? null}
                selected={selected.has(item.id)}
                onSelect={(shift) => toggleRow(row.index, shift)}
                previewActions={{
                  onKeep: category !== 'kept' ? () => void keep(item) : undefined,
                  onUnsubscribe:
                    category !== 'unsubscribed' ? () => void unsubscribe(item, { moveToTrash }) : undefined,
                }}
                actions={
                  <RowActions
                    item={item}
                    category={category}
                    busy={busyRows.has(item.id)}
                    onKeep={() => void keep(item)}
                    onBlock={() => void block(item)}
                    onUnsubscribe={() => void unsubscribe(item, { moveToTrash })}
                    onOrganise={() => onOrganise(item)}
                    onAskBlock={() => onAskBlock(item)}
                  />
                }
              />
            );
          })}
        </tbody>
      </table>
      {isFetchNextPageError && (
        <div className="mt-3">
          <ErrorState message="Failed to fetch more subscriptions..." onRetry={() => void fetchNextPage()} />
        </div>
      )}
      {isFetchingNextPage && (
        <p className="text-muted small mt-2 mb-0" aria-hidden="true">
          Loading more…
        </p>
      )}
    </>
  );
}
