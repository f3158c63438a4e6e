import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { EmailAccount } from '#contract/api.js';
import { usePublicConfig } from '../../../lib/public-config';
import { loadMailboxProblems, useEmailAccounts } from '../../accounts';
import { FreeUnsubscribesLeft } from '../../billing';
import { useOrganise } from '../actions/use-organise';
import { useSubscriptionActions } from '../actions/use-subscription-actions';
import { useLiveScan } from '../api/live-scan';
import { GROUP_BRAND, GROUP_PARAM } from '../brands/brand-pages';
import { loadBulkPanel, useListBulk } from '../bulk/use-list-bulk';
import { useRowBlock } from '../bulk/use-row-block';
import { useSelection } from '../bulk/use-selection';
import type { CategoryView } from './categories';
import { emptyList } from './empty-list';
import { GroupedList } from './grouped-list';
import { ListControls } from './list-controls';
import { ListHeader } from './list-header';
import {
  countCaption,
  DEFAULT_SORT,
  matchCaption,
  progressText,
  type SortOrder,
  scanRunning,
  showsAccounts,
} from './list-model';
import { SubscriptionTable } from './subscription-table';
import { useCategoryTotal } from './use-category-total';
import { useListRows } from './use-list-rows';

// The offer to select every matching sender comes with the bulk bar, with the first selection.
const MailboxProblems = lazy(loadMailboxProblems);
const SelectAllMatching = lazy(() => loadBulkPanel().then((m) => ({ default: m.SelectAllMatching })));

/** The search is sent to the server once typing pauses this long (the rows on screen filter at once). */
const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** "Group by brand" is in the address (?group=brand): it survives a reload and goes back with Back. */
function useGrouped() {
  const [params, setParams] = useSearchParams();
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
  return [params.get(GROUP_PARAM) === GROUP_BRAND, setGrouped] as const;
}

/** Where the senders' logos come from; null: nowhere (the public config has not come, or names none). */
function useLogoBaseUrl() {
  const publicConfig = usePublicConfig();
  return publicConfig.status === 'ready' ? (publicConfig.config?.logoBaseUrl ?? null) : null;
}

/** The user's mailboxes as the list needs them, and whether one is being scanned (with its progress). */
/** The list's "Also move existing mail to Trash" box (off until the user ticks it). */
function useTrashOption() {
  const [checked, onChange] = useState(false);
  return { checked, onChange };
}

function useMailboxes() {
  const { accounts, failed, retry, updatedAt } = useEmailAccounts();
  const liveScan = useLiveScan();
  return {
    accounts,
    /** For the empty states: the mailboxes could not be fetched, how many there are. */
    state: { failed, count: accounts?.length ?? null, retry },
    // A mailbox being scanned, or waiting for its first scan, keeps the spinner on.
    scanning: scanRunning(accounts, updatedAt, liveScan),
    progress: liveScan.progress,
  };
}

/**
 * docs/product.md §2 Subscription list screen for one category, filled live as a scan finds senders (the
 * live events write into the cached list: app/live-updates.ts). The list comes a page at a time as the user
 * scrolls and only the rows near the screen are rendered (subscription-table.tsx), so thousands of senders
 * scroll as smoothly as fifty. Rows can be selected (checkbox, Space on a focused row, Shift+click for a
 * range) and acted on together (bulk/use-selection.ts, bulk/use-list-bulk.tsx); the header, the controls, the row
 * buttons, the keyboard (use-row-keys.ts), the Organise dialog and the empty states are their own parts.
 */
export function SubscriptionScreen({ view }: { view: CategoryView }) {
  const { category } = view;
  const { accounts, state: accountState, scanning, progress } = useMailboxes();
  const [order, setOrder] = useState<SortOrder>(DEFAULT_SORT);
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  const [grouped, setGrouped] = useGrouped();
  const actions = useSubscriptionActions(category);
  const rows = useListRows(category, { order, query, q, grouped }, actions.askReauth);
  const { list, loaded, failed, loadedItems, visible, matching } = rows;
  const caption = useCaption({ view, order, grouped, query, q, rows });
  const trash = useTrashOption();
  const { organise, dialog: organiseDialog } = useOrganise();
  const showAccount = showsAccounts(loadedItems, accounts);
  const logoBaseUrl = useLogoBaseUrl();
  const busy = scanning || (!grouped && (!loaded || (list.isFetching && !list.isFetchingNextPage)));
  const selection = useSelection(visible);
  const { selected, select } = selection;
  const bulk = useListBulk(category, selection, actions, trash);
  const rowBlock = useRowBlock(bulk.startOn, actions);
  const empty = emptyRows(rows, { scanning, accounts: accountState, searching: q !== '' });

  return (
    <section className={`subscription-list${selected.size > 0 ? ' has-selection' : ''}`}>
      <ListHeader
        title={view.heading}
        busy={busy}
        caption={caption}
        progress={scanning && progress ? progressText(progress) : ''}
      />
      <ListControls
        order={order}
        onOrder={setOrder}
        query={query}
        onQuery={setQuery}
        trash={category !== 'unsubscribed' ? trash : null}
        grouped={{ checked: grouped, onChange: setGrouped }}
      />
      <TroubleBanner accounts={accounts} />
      {category !== 'unsubscribed' && <FreeUnsubscribesLeft />}
      {bulk.progress}
      {selected.size > 0 && (
        <Suspense fallback={null}>
          <SelectAllMatching
            category={category}
            order={order}
            q={q}
            shown={visible.length}
            matching={matching}
            selection={selection}
          />
        </Suspense>
      )}
      {grouped && (
        <GroupedList
          view={view}
          order={order}
          query={query}
          q={q}
          logoBaseUrl={logoBaseUrl}
          showAccount={showAccount}
          selected={selected}
          onSelect={select}
          actions={actions}
          moveToTrash={trash.checked}
          onOrganise={organise}
          run={bulk.run}
          onBulk={bulk.startOn}
          scanning={scanning}
          accounts={accountState}
        />
      )}
      <SubscriptionTable
        label={view.heading}
        hidden={failed || grouped}
        loading={!loaded}
        visible={visible}
        matching={matching}
        list={list}
        selection={selection}
        logoBaseUrl={logoBaseUrl}
        showAccount={showAccount}
        category={category}
        actions={actions}
        moveToTrash={trash.checked}
        onOrganise={organise}
        onAskBlock={rowBlock.ask}
      />
      {empty && !grouped && <div className="mt-3">{empty}</div>}
      {bulk.bar}
      {actions.dialogs}
      {organiseDialog}
      {rowBlock.dialog}
    </section>
  );
}

/** What shows when there are no rows (none while there are). */
function emptyRows(
  rows: ReturnType<typeof useListRows>,
  context: { scanning: boolean; accounts: ReturnType<typeof useMailboxes>['state']; searching: boolean },
) {
  const { list, loaded, loadedItems, visible } = rows;
  return emptyList({
    failed: rows.failed,
    reauth: rows.reauth,
    onRetry: () => void list.refetch(),
    settledEmpty: loaded && loadedItems.length === 0 && !context.scanning && !list.isFetching,
    searchHidesAll: loadedItems.length > 0 && visible.length === 0 && !list.isFetching,
    accounts: context.accounts,
    searching: context.searching,
  });
}

/**
 * The count under the heading: "40 Subscriptions Left to Review", "3 of 40 match" while a search is on,
 * nothing while the first page comes or after a failed fetch (never a "0" that is not one), none grouped
 * (the brand list has its own).
 */
function useCaption({
  view,
  order,
  grouped,
  query,
  q,
  rows,
}: {
  view: CategoryView;
  order: SortOrder;
  grouped: boolean;
  query: string;
  q: string;
  rows: ReturnType<typeof useListRows>;
}): string | null {
  const searching = query.trim() !== '';
  const categoryTotal = useCategoryTotal(view.category, order, searching && !grouped);
  if (grouped) return null;
  if (rows.failed || !rows.loaded) return '\u00a0';
  if (!searching) return countCaption(rows.total, view.caption);
  // Until the server has answered the search typed, the rows on screen filtered by it are what match.
  const settled = q === query.trim() && !rows.list.isPlaceholderData;
  return matchCaption(settled ? rows.total : rows.visible.length, categoryTotal);
}

/** A mailbox whose check failed says why, with its way out; loaded only when one has. */
function TroubleBanner({ accounts }: { accounts: EmailAccount[] | null }) {
  if (!accounts?.some((a) => a.status === 'error' || a.status === 'reauth')) return null;
  return (
    <Suspense fallback={null}>
      <MailboxProblems accounts={accounts} />
    </Suspense>
  );
}
