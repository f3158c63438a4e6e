import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useSearchParams } from 'react-router';
import { BULK_MAX_SUBSCRIPTIONS, type BulkAction, type Subscription } from '#contract/api.js';
import { ErrorState } from '../../components/ErrorState';
import { PageHeader } from '../../components/PageHeader';
import { useToasts } from '../../components/Toasts';
import { isStatus, messageOf, redirectUrlOf, wasAlerted } from '../../lib/api-client';
import { usePublicConfig } from '../../lib/public-config';
import { useEmailAccounts } from '../accounts';
import type { RuleTarget } from '../rules';
import { useLiveScan } from './api/live-scan';
import { useSubscriptionList } from './api/subscription-list';
import { GROUP_BRAND, GROUP_PARAM } from './brands/brandPages';
import type { CategoryView } from './categories';
import { emptyList } from './EmptyList';
import { ListControls } from './ListControls';
import { RowActions } from './RowActions';
import { SubscriptionRow } from './SubscriptionRow';
import {
  countCaption,
  DEFAULT_SORT,
  filterByAddress,
  itemsOfPages,
  progressText,
  type SortOrder,
  scanRunning,
  serverOrdered,
  showsAccounts,
  totalOf,
  visibleSubscriptions,
} from './subscriptionList';
import { useBulkAction } from './useBulkAction';
import { useSelection } from './useSelection';
import { useSubscriptionActions } from './useSubscriptionActions';

// The bar and the summary of bulk actions come with the first selection (the list's first load has a budget).
const BulkBar = lazy(() => import('./BulkPanel').then((m) => ({ default: m.BulkBar })));
const BulkProgress = lazy(() => import('./BulkPanel').then((m) => ({ default: m.BulkProgress })));
// The list grouped by brand comes with the first "Group by brand".
const BrandList = lazy(() => import('./brands/BrandList'));
// The Organise dialog comes with its first opening.
const OrganiseDialog = lazy(() => import('../rules').then((m) => m.loadOrganiseDialog()));

/** The search is sent to the server once typing pauses this long (the rows on screen filter at once). */
const SEARCH_DEBOUNCE_MS = 300;
/** Rows rendered beyond the screen, above and below. */
const OVERSCAN = 8;
/** The next page is asked for when this few loaded rows remain below the screen. */
const LOAD_AHEAD = 15;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * docs/product.md §2 Subscription list screen for one category, filled live as a scan finds senders (the
 * live events write into the cached list: app/live-updates.ts). The list comes a page at a time as the user
 * scrolls and only the rows near the screen are rendered, so thousands of senders scroll as smoothly as
 * fifty. Rows can be selected (checkbox, Space on a focused row, Shift+click for a range) and acted on
 * together (useSelection.ts); the controls, the row buttons and the empty states are their own parts.
 */
export function SubscriptionList({ view }: { view: CategoryView }) {
  const { category } = view;
  const publicConfig = usePublicConfig();
  const {
    accounts,
    failed: accountsFailed,
    retry: retryAccounts,
    updatedAt: accountsAt,
  } = useEmailAccounts();
  const [order, setOrder] = useState<SortOrder>(DEFAULT_SORT);
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  // "Group by brand" is in the address (?group=brand): it survives a reload and goes back with Back.
  const [params, setParams] = useSearchParams();
  const grouped = params.get(GROUP_PARAM) === GROUP_BRAND;
  const setGrouped = (on: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set(GROUP_PARAM, GROUP_BRAND);
        else next.delete(GROUP_PARAM);
        return next;
      },
      { replace: true },
    );
  const list = useSubscriptionList(category, order, q, !grouped);
  const liveScan = useLiveScan();
  const [moveToTrash, setMoveToTrash] = useState(false);
  const actions = useSubscriptionActions(category);
  const { busyRows, keep, unsubscribe, block, dialogs } = actions;
  const toasts = useToasts();
  const bulk = useBulkAction(category);
  const [confirmed, setConfirmed] = useState<ReadonlySet<string>>(new Set());
  const [selectingAll, setSelectingAll] = useState(false);
  // The Organise dialog loads with its first opening, then stays (so that it closes with its transition).
  const [organising, setOrganising] = useState<RuleTarget | null>(null);
  const [organiseWanted, setOrganiseWanted] = useState(false);

  function organise(item: Subscription) {
    setOrganiseWanted(true);
    setOrganising({
      subscriptionId: item.id,
      address: item.address,
      senderName: item.senderName,
      account: item.account,
      rule: item.rule ?? null,
    });
  }

  const pages = list.data?.pages;
  const loadedItems = useMemo(() => itemsOfPages(pages), [pages]);
  const byServer = serverOrdered(pages);
  // The server orders and searches its pages; an older whole-list answer is ordered here. Either way
  // the typed search filters the rows on screen at once, before the server's answer to it comes.
  const visible = useMemo(
    () =>
      byServer ? filterByAddress(loadedItems, query) : visibleSubscriptions(loadedItems, { order, query }),
    [byServer, loadedItems, order, query],
  );
  const total = totalOf(pages, loadedItems.length);
  const matching = byServer ? total : visible.length;
  const showAccount = showsAccounts(loadedItems, accounts);
  const logoBaseUrl = publicConfig.status === 'ready' ? (publicConfig.config?.logoBaseUrl ?? null) : null;

  // A mailbox being scanned, or waiting for its first scan, keeps the spinner on.
  const scanning = scanRunning(accounts, accountsAt, liveScan);
  const progress = liveScan.progress;
  /** The first answer (or failure) came. */
  const loaded = !list.isPending;
  const failed = list.isError && !list.data;
  const busy = scanning || (!grouped && (!loaded || (list.isFetching && !list.isFetchingNextPage)));

  // A mailbox that needs signing in again, while the list is open: the dialog with the server's reason.
  const reauthUrl = list.isError && isStatus(list.error, 401) ? redirectUrlOf(list.error) : null;
  const reauthReason = reauthUrl ? messageOf(list.error, '') : '';
  const { askReauth } = actions;
  useEffect(() => {
    if (reauthUrl) askReauth(reauthUrl, reauthReason || undefined);
  }, [reauthUrl, reauthReason, askReauth]);

  // ----- the virtual list
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

  // ----- selection
  const {
    selected,
    selectedItems,
    allVisibleSelected,
    someVisibleSelected,
    toggleRow,
    toggleAllVisible,
    select,
  } = useSelection(visible);

  async function selectAllMatching() {
    setSelectingAll(true);
    try {
      const { fetchAllMatching } = await import('./BulkPanel');
      const all = await fetchAllMatching(category, order, q);
      select(all);
    } catch (error) {
      console.warn('Failed to fetch subscriptions...', error);
      if (!wasAlerted(error))
        toasts.show({ text: 'Could not select every matching sender. Please try again.' });
    } finally {
      setSelectingAll(false);
    }
  }

  /** Space on a focused row toggles its checkbox; the arrow keys move between rows. */
  function onRowKey(event: KeyboardEvent<HTMLTableSectionElement>) {
    const row = (event.target as HTMLElement).closest<HTMLElement>('tr[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    if (event.key === ' ' && event.target === row) {
      event.preventDefault();
      toggleRow(index, event.shiftKey);
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && event.target === row) {
      event.preventDefault();
      const next = index + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0 || next >= visible.length) return;
      const rowAt = () => bodyRef.current?.querySelector<HTMLElement>(`tr[data-index="${next}"]`);
      // A row near the screen is rendered already: focus moves at once (a Space right after lands on it);
      // one further away is scrolled to and focused once rendered.
      const near = rowAt();
      if (near) {
        near.focus();
        return;
      }
      virtualizer.scrollToIndex(next);
      requestAnimationFrame(() => rowAt()?.focus());
    }
  }

  // ----- bulk
  async function startBulk(action: BulkAction) {
    const items = selectedItems.slice(0, BULK_MAX_SUBSCRIPTIONS);
    select([]);
    setConfirmed(new Set());
    try {
      await bulk.start(action, items, { moveToTrash });
    } catch (error) {
      actions.reportFailure(error);
      select(items);
    }
  }

  const run = bulk.run;

  async function confirmManual(item: Subscription) {
    if (await actions.confirmManual(item)) setConfirmed((current) => new Set(current).add(item.id));
  }

  // ----- what shows when there are no rows
  const empty = emptyList({
    failed,
    reauth: reauthUrl ? { url: reauthUrl, reason: reauthReason } : null,
    onRetry: () => void list.refetch(),
    settledEmpty: loaded && loadedItems.length === 0 && !scanning && !list.isFetching,
    searchHidesAll: loadedItems.length > 0 && visible.length === 0 && !list.isFetching,
    accounts: { failed: accountsFailed, count: accounts?.length ?? null, retry: retryAccounts },
    searching: q !== '',
  });

  const rowActions = (item: Subscription) => (
    <RowActions
      item={item}
      category={category}
      busy={busyRows.has(item.id)}
      onKeep={() => void keep(item)}
      onBlock={() => void block(item)}
      onUnsubscribe={() => void unsubscribe(item, { moveToTrash })}
      onOrganise={() => organise(item)}
    />
  );

  return (
    <section className={`subscription-list${selected.size > 0 ? ' has-selection' : ''}`}>
      <PageHeader
        title={view.heading}
        status={
          busy && (
            <Spinner animation="border" size="sm" variant="primary" role="status">
              <span className="visually-hidden">Loading subscriptions…</span>
            </Spinner>
          )
        }
      />
      {/* A failed fetch counts nothing: no caption claiming 0. Grouped, the brand list has its own. */}
      {!grouped && (
        <p className="text-muted mb-3 count-caption">
          {failed ? '\u00a0' : countCaption(total, view.caption)}
        </p>
      )}
      <p className="small text-primary mb-0 scan-progress" role="status" aria-live="polite">
        {scanning && progress ? progressText(progress) : ''}
      </p>

      <ListControls
        order={order}
        onOrder={setOrder}
        query={query}
        onQuery={setQuery}
        trash={category !== 'unsubscribed' ? { checked: moveToTrash, onChange: setMoveToTrash } : null}
        grouped={{ checked: grouped, onChange: setGrouped }}
      />

      {run && (
        <Suspense fallback={null}>
          <BulkProgress
            run={run}
            confirmed={confirmed}
            onConfirmManual={(item) => void confirmManual(item)}
            onClose={bulk.close}
          />
        </Suspense>
      )}

      {allVisibleSelected &&
        matching > visible.length &&
        selected.size < Math.min(matching, BULK_MAX_SUBSCRIPTIONS) && (
          <div className="select-all-matching small px-3 py-2 border border-bottom-0 rounded-top">
            All {visible.length} on this page are selected.{' '}
            <Button
              variant="link"
              size="sm"
              className="p-0 align-baseline"
              disabled={selectingAll}
              onClick={() => void selectAllMatching()}
            >
              Select all {Math.min(matching, BULK_MAX_SUBSCRIPTIONS)} matching
            </Button>
          </div>
        )}
      {grouped && (
        <Suspense
          fallback={
            <Spinner animation="border" size="sm" variant="primary" role="status">
              <span className="visually-hidden">Loading brands…</span>
            </Spinner>
          }
        >
          <BrandList
            view={view}
            order={order}
            query={query}
            q={q}
            logoBaseUrl={logoBaseUrl}
            showAccount={showAccount}
            selected={selected}
            onSelect={select}
            actions={actions}
            moveToTrash={moveToTrash}
            onOrganise={organise}
            run={run}
            onBulk={(action, items) => {
              setConfirmed(new Set());
              return bulk.start(action, items.slice(0, BULK_MAX_SUBSCRIPTIONS), { moveToTrash });
            }}
            scanning={scanning}
            accounts={{ failed: accountsFailed, count: accounts?.length ?? null, retry: retryAccounts }}
          />
        </Suspense>
      )}
      {/* A table laid out as a grid (styles.css): only the rows near the screen exist, placed by the virtualizer. */}
      <table
        hidden={failed || grouped}
        aria-label={view.heading}
        aria-rowcount={matching + 1}
        className="subscription-table bg-white border mb-0"
      >
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
                disabled={visible.length === 0}
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
                actions={rowActions(item)}
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
      {empty && !grouped && <div className="mt-3">{empty}</div>}
      {selected.size > 0 && (
        <Suspense fallback={null}>
          <BulkBar
            category={category}
            selected={selectedItems}
            moveToTrash={moveToTrash}
            onMoveToTrash={setMoveToTrash}
            onStart={(action) => void startBulk(action)}
            onClear={() => select([])}
          />
        </Suspense>
      )}
      {dialogs}
      {organiseWanted && (
        <Suspense fallback={null}>
          <OrganiseDialog target={organising} onClose={() => setOrganising(null)} />
        </Suspense>
      )}
    </section>
  );
}
